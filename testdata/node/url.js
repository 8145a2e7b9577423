// URL (WHATWG): parsing, the components, relative resolution, hosts,
// percent-encoding, searchParams linked to the URL, setters, canParse.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message + (e.code !== undefined ? ' code=' + e.code : '')]); } };
const parts = (u) => [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash];
const inputs = [
  ['https://example.com'],
  ['https://user:pa ss@Example.COM:8080/a/b/../c/./d?x=1&y=2#frag'],
  ['http://example.com:80/'],
  ['https://example.com:443/x'],
  ['https://example.com:0443/x'],
  ['ws://h:81/'],
  ['ftp://ftp.example.org/pub/file.txt'],
  ['HTTP://EXAMPLE.com/%7Efoo/ bar?q=a b&c="d"#x y'],
  ['https://example.com/a\\b\\c'],
  ['https://example.com/ä/ö?ü=1#ß'],
  ['https://münchen.de/'],
  ['https://xn--mnchen-3ya.de/'],
  ['https://例え.テスト/'],
  ['https://EXAMPLE.com./'],
  ['http://192.168.0.1/'],
  ['http://0x7f.1/'],
  ['http://0300.0250.0.1/'],
  ['http://3232235521/'],
  ['http://1.2.3.4.5/'],
  ['http://256.0.0.1/'],
  ['http://[::1]:3000/'],
  ['http://[2001:DB8:0:0:0:0:0:1]/'],
  ['http://[2001:db8::1:0:0:1]/'],
  ['http://[::ffff:192.168.1.1]/'],
  ['http://[0:0:0:0:0:0:0:0]/'],
  ['http://[1:0:0:2:0:0:0:3]/'],
  ['http://[::1/'],
  ['http://exa mple.com/'],
  ['http://ex%41mple.com/'],
  ['http://a<b/'],
  ['https://'],
  ['https://:8080/'],
  ['https://example.com:65536/'],
  ['https://example.com:8o/'],
  ['  https://example.com/ \n'],
  ['https://ex\tam\nple.com/'],
  ['mailto:someone@example.com?subject=Hi there'],
  ['data:text/plain,Hello World#frag'],
  ['javascript:alert(1)'],
  ['urn:isbn:0451450523'],
  ['custom://host/path?q#h'],
  ['custom://Host:99/p'],
  ['custom:/just/path'],
  ['custom:///triple'],
  ['file:///home/user/file.txt'],
  ['file://localhost/etc/hosts'],
  ['file://server/share/x'],
  ['file:///C:/Windows/x'],
  ['file:///C|/x'],
  ['blob:https://example.com/uuid'],
  ['not a url'],
  [''],
  ['http://example.com/?'],
  ['http://example.com/#'],
  ['http://example.com/a?b#c?d#e'],
  ['http://example.com/%2e%2E/a/.%2e/b'],
  ['http://example.com/a/b/c/../../..//d'],
  ['http://user@example.com/'],
  ['http://:pass@example.com/'],
  ['http://us@er:p@ss@example.com/'],
  ['http://example.com/?q=\'x\'', ],
  ['non-special://h/?q=\'x\''],
  ['https://example.com/`{}|^'],
  ['https://example.com/?`{}|^'],
  ['https://example.com/#`{}|^<>'],
  ['//example.com/path', 'https://base.org/x'],
  ['/abs', 'https://base.org/a/b?q#h'],
  ['rel', 'https://base.org/a/b?q#h'],
  ['../up', 'https://base.org/a/b/c'],
  ['../../../../up', 'https://base.org/a/b'],
  ['./same', 'https://base.org/a/b'],
  ['?newq', 'https://base.org/a/b?q#h'],
  ['#newh', 'https://base.org/a/b?q#h'],
  ['', 'https://base.org/a/b?q#h'],
  ['http:rel', 'http://base.org/a/b'],
  ['https:rel', 'http://base.org/a/b'],
  ['\\\\other.org\\x', 'https://base.org/'],
  ['x', 'mailto:a@b'],
  ['#frag', 'mailto:a@b'],
  ['x', 'not a url'],
  ['file.txt', 'file:///home/user/'],
  ['/etc', 'file:///C:/dir/'],
  ['https://other.org/', 'https://base.org/'],
  ['//h:99', 'wss://b/'],
];
for (const [u, b] of inputs) t(b === undefined ? u : u + ' @ ' + b, () => parts(b === undefined ? new URL(u) : new URL(u, b)));
for (const [u, b] of inputs) t('canParse ' + u + ' @ ' + b, () => URL.canParse(u, b));
t('no args', () => new URL());
t('bad base', () => new URL('/x', 'nope'));
t('error', () => { try { new URL('nope'); } catch (e) { return [e instanceof TypeError, e.code, e.input]; } });
t('URL.parse', () => [URL.parse('nope'), String(URL.parse('/a', 'http://h'))]);
t('toString toJSON', () => { const u = new URL('https://a.b/c?d'); return [String(u), u.toJSON(), JSON.stringify({ u })]; });
t('searchParams read', () => { const u = new URL('https://a.b/?x=1&y=2&x=3&sp=a+b&pc=%20%26'); return [u.searchParams.get('x'), u.searchParams.getAll('x'), u.searchParams.get('sp'), u.searchParams.get('pc'), u.searchParams.size]; });
t('searchParams same object', () => { const u = new URL('https://a.b/?x=1'); return u.searchParams === u.searchParams; });
t('searchParams append', () => { const u = new URL('https://a.b/p?x=1#h'); u.searchParams.append('y', 'a b&c'); return [u.href, u.search]; });
t('searchParams set delete', () => { const u = new URL('https://a.b/?x=1&x=2&z=3'); u.searchParams.set('x', '9'); u.searchParams.delete('z'); return u.href; });
t('searchParams delete all', () => { const u = new URL('https://a.b/?x=1#h'); u.searchParams.delete('x'); return [u.href, u.search]; });
t('searchParams sort', () => { const u = new URL('https://a.b/?c=1&a=2&b=3'); u.searchParams.sort(); return u.search; });
t('search setter updates params', () => { const u = new URL('https://a.b/?x=1'); const sp = u.searchParams; u.search = '?y=2&y=3'; return [sp.getAll('y'), sp.has('x'), u.href]; });
t('search setter', () => { const u = new URL('https://a.b/p#h'); u.search = 'a b=c'; const a = u.href; u.search = ''; return [a, u.href]; });
t('hash setter', () => { const u = new URL('https://a.b/p?q'); u.hash = 'x y'; const a = u.href; u.hash = ''; return [a, u.href]; });
t('pathname setter', () => { const u = new URL('https://a.b/p?q#h'); u.pathname = 'new path/ä/../x'; return u.href; });
t('port setter', () => { const u = new URL('https://a.b/'); u.port = '8443'; const a = u.href; u.port = '443'; const b = u.href; u.port = ''; return [a, b, u.href]; });
t('hostname setter', () => { const u = new URL('https://a.b:99/p'); u.hostname = 'Other.ORG'; return u.href; });
t('host setter', () => { const u = new URL('https://a.b/p'); u.host = 'c.d:8080'; return [u.href, u.host, u.port]; });
t('protocol setter', () => { const u = new URL('http://a.b:443/p'); u.protocol = 'https'; const a = u.href; u.protocol = 'foo'; return [a, u.href]; });
t('username password setters', () => { const u = new URL('https://a.b/'); u.username = 'me@x'; u.password = 'p:w'; return u.href; });
t('href setter', () => { const u = new URL('https://a.b/?x=1'); const sp = u.searchParams; u.href = 'http://c.d/?y=2'; return [u.href, sp.get('y'), sp.get('x')]; });
t('href setter invalid', () => { const u = new URL('https://a.b/'); u.href = 'nope'; });
t('keys', () => Object.keys(new URL('https://a.b/')));
t('toStringTag', () => Object.prototype.toString.call(new URL('https://a.b/')));
t('instanceof', () => new URL('https://a.b/') instanceof URL);
t('fetch style', () => { const u = new URL('/api/v1/items', 'https://api.example.com'); u.searchParams.set('page', '2'); u.searchParams.set('q', 'red shoes'); return u.toString(); });
t('typeof', () => [typeof URL, typeof URL.canParse, URL.name, URL.length, URL.canParse.length, URL.parse.length, 'URL' in globalThis]);
t('assign global', () => { const saved = URL; globalThis.URL = 5; const v = URL; globalThis.URL = saved; return [v, typeof URL]; });
t('new URL from URL', () => new URL(new URL('https://a.b/c?d#e')).href);
t('relative to URL object', () => new URL('x', new URL('https://a.b/c/d')).href);
t('long', () => new URL('https://a.b/' + 'x/'.repeat(2000) + '?q=' + 'y'.repeat(5000)).href.length);
t('emoji path', () => new URL('https://a.b/😀?😀#😀').href);
t('lone surrogate', () => new URL('https://a.b/\ud800').pathname);
return out;
