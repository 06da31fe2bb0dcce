// Ports: what an area asks of an outside system (a card processor, a payout rail, a network, a generator), declared
// by the area as an interface and a port; the composition root (wiring/compose.ts) provides the implementation a
// setting names, before any request or job runs. The runtime keeps the table and knows none of the ports.

export interface Port<T> {
  /** the port's name, for the error when nothing provides it */
  readonly name: string;
  /** the implementation provided; throws when none was */
  (): T;
  provide(implementation: T): void;
  /** whether an implementation was provided */
  provided(): boolean;
}

export function definePort<T>(name: string): Port<T> {
  let implementation: T | undefined;
  const port = (() => {
    if (implementation === undefined) {
      throw new Error(`Nothing provides the ${name} port: wiring/compose.ts must run before requests and jobs`);
    }
    return implementation;
  }) as Port<T>;
  Object.defineProperty(port, 'name', { value: name });
  port.provide = (next: T) => {
    implementation = next;
  };
  port.provided = () => implementation !== undefined;
  return port;
}
