/** The password policy for new and changed passwords. */

/** Why `password` may not be set for `username`, or null when it may. */
export function passwordProblem(username: string, password: string, minLength: number): string | null {
  if ([...password].length < minLength) return `A password must be at least ${minLength} characters.`;
  if (password.toLowerCase() === username.toLowerCase()) return 'A password must not be the user name.';
  return null;
}
