/** Plain words for the reasons a named file is most often unreadable. */
const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EISDIR: "it is a folder, not a file",
};

/**
 * Why a file could not be read, for a one-line message that already names the file: plain
 * words for the usual reasons, else the system's message without its code and path
 * ("ENOENT: no such file or directory, open 'nope.csv'" is "no such file").
 */
export function unreadable(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return (
    (code && REASONS[code]) ??
    String(message)
      .replace(/^[A-Z]+: /, "")
      .replace(/, \w+ '.*'$/, "")
  );
}
