/**
 * Runs a shell command (/bin/sh -c) in a sandbox: it can write only in the
 * workspace and temp dirs, credential stores are hidden, and the network is
 * off unless configured (then only listed hosts, through a proxy).
 * timeout is milliseconds or a duration like "5s".
 */
declare function sh(command: string, options?: { cwd?: string; timeout?: number | string; env?: Record<string, string>; stdin?: string | Uint8Array }): Promise<{ exitCode: number; stdout: string; stderr: string; timedOut: boolean; truncated: boolean }>;
