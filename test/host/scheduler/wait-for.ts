// Polling helper for scheduler tests: resolves once `check` holds, rejects after a deadline
// with what was being waited for (a deadline, not a timing assertion).
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
