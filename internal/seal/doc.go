// Package seal makes and checks continuation tokens: the sealed,
// expiring, single-use tokens a paused run hands to its client and that
// "modebox resume TOKEN" brings back.
//
// Tokens come back from untrusted clients, so [Keyring.Seal] encrypts and
// authenticates them with XChaCha20-Poly1305 under a local secret key, and
// [Keyring.Open] checks them strictly: without the key a token can be
// neither read, forged nor modified; it opens only on the engine image
// and tool set it was issued for ([Binding]), only between its issue and
// expiry times, and, with a [Store] ([Keyring.OpenOnce]), only once, even
// across processes ([DirStore]). Every refusal is an [*Error] with a
// stable code such as TOKEN_EXPIRED.
//
// # Keys
//
// Keys are 32 random bytes, identified by a short id derived from the
// secret ([KeyID]); a token names the id of the key that sealed it, and
// Open picks that key, never trying several. A [Keyring] has one active
// key, which seals, and previous keys, which still open: rotation is
// adding a key in front and dropping the old one after [MaxLifetime].
// [LoadKeyring] reads the keys from $MODEBOX_SECRET or else from a private
// key file it creates on first use.
//
// # Wire format
//
// A token is the prefix "mbx1." followed by the raw token in base64url
// without padding (RFC 4648 §5), which Open decodes strictly: no padding,
// no whitespace, no other alphabet, no non-zero trailing bits. The raw
// token is
//
//	offset  size  field
//	     0     1  version, 1
//	     1     8  key id: first 8 bytes of SHA-256(secret)
//	     9     8  issue time, Unix seconds, big-endian int64
//	    17     8  expiry time, Unix seconds, big-endian int64
//	    25    16  token id, 128 random bits
//	    41    32  SHA-256 of Binding.Engine
//	    73    32  SHA-256 of Binding.Tools
//	   105    24  nonce, random
//	   129     …  XChaCha20-Poly1305 ciphertext of the DEFLATE-compressed
//	              body, then the 16-byte tag
//
// The first 105 bytes are the header: in clear, so that the key and a
// binding mismatch can be found before decrypting, and authenticated as
// associated data (together with the prefix), so that changing any of it
// fails authentication. A token is at most [MaxTokenSize] bytes of text;
// its body decompresses to at most [MaxBodySize] bytes; it lives at most
// [MaxLifetime], and may be issued up to [ClockSkew] in the future.
package seal
