// The one error type of the publish step: its message is what the operator reads, so it says what to do.
export class PublishError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PublishError";
  }
}
