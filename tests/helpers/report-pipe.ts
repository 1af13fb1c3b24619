// A test process that the runner started sends its results to the runner through its stdout, a pipe. On Linux a
// write to a full pipe is queued in the process, and a process that ends with process.exit() (as --test-force-exit
// makes every test process do once its tests are done) drops what is still queued: the last results of a file
// never reach the runner, which then counts fewer tests and still passes. Blocking writes leave nothing queued:
// a write returns once the runner's end of the pipe has taken it, so a process that exits has sent everything.
// scripts/test/complete-reports.ts checks, after the run, that every file's results arrived whole.
interface PipeHandle {
  setBlocking?: (blocking: boolean) => number;
}

if (process.env.NODE_TEST_CONTEXT === "child-v8") {
  const handle = (process.stdout as unknown as { _handle?: PipeHandle })._handle;
  handle?.setBlocking?.(true);
}
