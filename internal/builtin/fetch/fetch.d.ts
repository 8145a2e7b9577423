/**
 * Makes a web request from the host (http and https only). Listed hosts go
 * through directly; others need approval. Loopback and private addresses
 * are reachable only when configured by exact host and port.
 */
declare function fetch(url: string, init?: { method?: string; headers?: Record<string, string> | Array<[string, string]> | Headers; body?: string | Uint8Array | ArrayBuffer; redirect?: "follow" }): Promise<Response>;
declare class Headers { constructor(init?: Record<string, string> | Array<[string, string]> | Headers); get(name: string): string | null; has(name: string): boolean; set(name: string, value: string): void; append(name: string, value: string): void; delete(name: string): void; entries(): IterableIterator<[string, string]>; keys(): IterableIterator<string>; values(): IterableIterator<string>; forEach(fn: (value: string, name: string) => void): void; }
declare class Response { readonly status: number; readonly statusText: string; readonly ok: boolean; readonly url: string; readonly redirected: boolean; readonly headers: Headers; readonly bodyUsed: boolean; text(): Promise<string>; json(): Promise<any>; arrayBuffer(): Promise<ArrayBuffer>; bytes(): Promise<Uint8Array>; base64(): Promise<string>; clone(): Response; }
