/**
 * One entry of fs.list, or fs.stat's answer. kind "symlink" (never
 * followed) and "other" (a pipe, socket or device) are listed and
 * stat-able but cannot be read, written or removed.
 */
interface FileInfo { path: string; name: string; kind: "file" | "dir" | "symlink" | "other"; size: number; modTime: string; readOnly?: boolean }
/**
 * Files under the configured mounts (absolute guest paths such as
 * "/data/a.txt"). Writes are staged and committed when the run ends well,
 * each only if the file did not change meanwhile.
 */
declare const fs: {
  read(path: string, options?: { encoding?: "utf8" }): Promise<string>;
  read(path: string, options: { encoding: "bytes" }): Promise<Uint8Array>;
  read(path: string, options: { encoding: "base64" }): Promise<string>;
  write(path: string, data: string | Uint8Array | ArrayBuffer): Promise<void>;
  remove(path: string): Promise<void>;
  list(path: string): Promise<FileInfo[]>;
  stat(path: string): Promise<FileInfo>;
  exists(path: string): Promise<boolean>;
  /** Finds files: patterns use *, ?, [...] and ** (any depth of directories). */
  glob(pattern: string): Promise<string[]>;
};
