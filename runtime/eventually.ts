// Values that are usually at hand (a cache hit, what this request already looked up) and sometimes must be loaded.
// Answered without a promise when at hand: on a request's path a promise and its await cost more than most hits do.

/** A value, or the promise of it while it must still be loaded. */
export type Eventually<T> = T | Promise<T>;

/** `next` applied to the value: at once when it is at hand, else when it arrives. */
export function andThen<T, R>(value: Eventually<T>, next: (value: T) => Eventually<R>): Eventually<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
