/** A fork whose remote cannot serve it (unreachable, refusing, or offline without a cache): the start fails with the reason. */
export class ForkUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForkUnavailable';
  }
}
