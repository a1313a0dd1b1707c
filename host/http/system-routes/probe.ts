/** What /healthz and /readyz share: a bounded store ping and the store's state as a schema. */
export const HEALTH_TIMEOUT_MS = 3000;

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const storeState = (status: 'ok' | 'unavailable') => ({
  type: 'object',
  required: ['kind', 'status'],
  properties: { kind: { type: 'string' }, status: { const: status } },
});
