/** The plugin's behaviour as a plain module, testable without a host. */
export function greet(greeting: string, name: string): string {
  const cleanName = name.trim() || 'world';
  return `${greeting}, ${cleanName}!`;
}
