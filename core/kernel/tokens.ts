import type { InjectionToken } from 'tsyringe';

/**
 * A typed injection token. tsyringe resolves by token; the phantom type parameter lets
 * `container.resolve(token)` come back typed without a cast at the call site.
 */
export type Token<T> = InjectionToken<T> & { readonly __type?: T; readonly description: string };

export function createToken<T>(name: string): Token<T> {
  // A symbol cannot collide with another plugin's token of the same name.
  const symbol = Symbol.for(`flowhost:${name}`) as unknown as Token<T>;
  return symbol;
}
