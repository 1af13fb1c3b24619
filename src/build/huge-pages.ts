// The build's large buffers (reviews.json and its variants, the search index, the caches' bytes: hundreds of MB at
// 100,000 reviews) come from glibc's malloc, which the kernel backs page by page as they are first written. On a
// virtual machine each 4 KiB page fault can cost 15-20 us: measured on the 2-core bench machine, copying 75 MB into
// a fresh buffer took 330 ms, into a reused one 6 ms. With glibc.malloc.hugetlb=1, malloc asks for transparent huge
// pages (madvise; the kernel's default mode) and the same copy took 24 ms; a rebuild after one changed review at
// 100,000 reviews went from 10.9 s to 9.0 s. The tunable is read when the process starts, so the build's entry
// points restart themselves with it, once, through execve (same process id, same file descriptors and
// arguments). An operator's own GLIBC_TUNABLES naming glibc.malloc.hugetlb wins (=0 turns this off); elsewhere than
// Linux, or where Node has no process.execve, nothing happens. On other C libraries the variable is ignored.

const TUNABLE = "glibc.malloc.hugetlb";

/** The value GLIBC_TUNABLES gives glibc.malloc.hugetlb, if any. */
const hugetlbOf = (tunables: string | undefined): string | undefined =>
  tunables
    ?.split(":")
    .find((t) => t.startsWith(`${TUNABLE}=`))
    ?.slice(TUNABLE.length + 1);

/** GLIBC_TUNABLES with huge pages for malloc added, or undefined when it already says something about them. */
export function tunablesWithHugePages(current: string | undefined): string | undefined {
  if (hugetlbOf(current) !== undefined) return undefined;
  return current ? `${current}:${TUNABLE}=1` : `${TUNABLE}=1`;
}

/** Whether `tunables` (GLIBC_TUNABLES) put malloc on huge pages. */
export const onHugePages = (tunables: string | undefined): boolean => {
  const value = hugetlbOf(tunables);
  return value !== undefined && value !== "0";
};

/** Restarts this process with glibc's malloc on transparent huge pages, unless it runs with them (or can't). */
export function restartWithHugePages(): void {
  if (process.platform !== "linux" || typeof process.execve !== "function") return;
  const tunables = tunablesWithHugePages(process.env.GLIBC_TUNABLES);
  if (tunables === undefined) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    GLIBC_TUNABLES: tunables,
  });
}
