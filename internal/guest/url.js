// modebox URL: the WHATWG URL standard's basic parser and serializer, as a
// function expression the prelude compiles (indirect eval) the first time
// a program reads URL; the host serves the text (guest.Sources), so the
// snapshot every run restores holds none of it. It receives what it needs
// from the prelude, captured at init.
(function (deps) {
  'use strict';
  'use strip';
  const { G, O, hasOwnProp, arrayFrom, StringCtor, TypeErrorCtor, WeakMapCtor, weakMapGet, weakMapSet,
    apply, defineProperty, hidden, utf8Bytes, URLSearchParams, formEncode } = deps;
  const specialPorts = { ftp: 21, file: null, http: 80, https: 443, ws: 80, wss: 443 };
  const isSpecialScheme = (s) => hasOwnProp.call(specialPorts, s);
  const urlAlpha = /[A-Za-z]/, urlAlnum = /[A-Za-z0-9+\-.]/, urlHex = /^[0-9A-Fa-f]$/;
  const inC0 = (c) => c < 0x20 || c > 0x7e;
  const inFragmentSet = (c) => inC0(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
  const inQuerySet = (c) => inC0(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
  const inSpecialQuerySet = (c) => inQuerySet(c) || c === 0x27;
  const inPathSet = (c) => inQuerySet(c) || c === 0x3f || c === 0x60 || c === 0x7b || c === 0x7d;
  const inUserinfoSet = (c) => inPathSet(c) || c === 0x2f || c === 0x3a || c === 0x3b || c === 0x3d || c === 0x40 || (c >= 0x5b && c <= 0x5e) || c === 0x7c;
  function pctEncode(s, inSet) {
    let i = 0;
    while (i < s.length) { const c = s.charCodeAt(i); if (c >= 0x80 || inSet(c)) break; i++; }
    if (i === s.length) return s;
    let out = '';
    for (const ch of s) {
      const c = ch.codePointAt(0);
      if (c < 0x80 && !inSet(c)) { out += ch; continue; }
      if (c < 0x80) { out += '%' + (c < 16 ? '0' : '') + c.toString(16).toUpperCase(); continue; }
      const bytes = [];
      utf8Bytes(ch.toWellFormed(), bytes, Infinity);
      for (const b of bytes) out += '%' + b.toString(16).toUpperCase();
    }
    return out;
  }
  function pctDecodeBytes(s) {
    const bytes = [];
    utf8Bytes(s, bytes, Infinity);
    const out = [];
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0x25 && i + 2 < bytes.length && urlHex.test(StringCtor.fromCharCode(bytes[i + 1])) && urlHex.test(StringCtor.fromCharCode(bytes[i + 2]))) {
        out.push(parseInt(StringCtor.fromCharCode(bytes[i + 1], bytes[i + 2]), 16));
        i += 2;
      } else out.push(bytes[i]);
    }
    return new Uint8Array(out);
  }
  function punycodeLabel(label) {
    const cps = arrayFrom(label, (ch) => ch.codePointAt(0));
    let out = cps.filter((c) => c < 0x80).map((c) => StringCtor.fromCharCode(c)).join('');
    const b = out.length;
    let h = b;
    if (b > 0) out += '-';
    let n = 128, delta = 0, bias = 72;
    const adapt = (d, num, first) => {
      d = first ? Math.floor(d / 700) : d >> 1;
      d += Math.floor(d / num);
      let k = 0;
      while (d > 455) { d = Math.floor(d / 35); k += 36; }
      return k + Math.floor(36 * d / (d + 38));
    };
    const digit = (d) => StringCtor.fromCharCode(d + 22 + 75 * (d < 26));
    while (h < cps.length) {
      const m = Math.min(...cps.filter((c) => c >= n));
      delta += (m - n) * (h + 1);
      n = m;
      for (const c of cps) {
        if (c < n) delta++;
        if (c === n) {
          let q = delta;
          for (let k = 36; ; k += 36) {
            const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
            if (q < t) break;
            out += digit(t + (q - t) % (36 - t));
            q = Math.floor((q - t) / (36 - t));
          }
          out += digit(q);
          bias = adapt(delta, h + 1, h === b);
          delta = 0;
          h++;
        }
      }
      delta++; n++;
    }
    return 'xn--' + out;
  }
  function parseIPv4Number(s) {
    if (s === '') return NaN;
    let radix = 10;
    if (s.length >= 2 && (s.slice(0, 2) === '0x' || s.slice(0, 2) === '0X')) { s = s.slice(2); radix = 16; }
    else if (s.length >= 2 && s[0] === '0') { s = s.slice(1); radix = 8; }
    if (s === '') return 0;
    const re = radix === 16 ? /^[0-9A-Fa-f]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
    return re.test(s) ? parseInt(s, radix) : NaN;
  }
  function endsInNumber(host) {
    const parts = host.split('.');
    if (parts[parts.length - 1] === '') { if (parts.length === 1) return false; parts.pop(); }
    const last = parts[parts.length - 1];
    if (last !== '' && /^[0-9]+$/.test(last)) return true;
    return /^0[xX][0-9A-Fa-f]*$/.test(last);
  }
  function parseIPv4(host) {
    const parts = host.split('.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
    if (parts.length > 4) return null;
    const nums = [];
    for (const p of parts) { const n = parseIPv4Number(p); if (n !== n) return null; nums.push(n); }
    for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return null;
    if (nums[nums.length - 1] >= 256 ** (5 - nums.length)) return null;
    let ipv4 = nums[nums.length - 1];
    for (let i = 0; i < nums.length - 1; i++) ipv4 += nums[i] * 256 ** (3 - i);
    const out = [];
    for (let i = 0; i < 4; i++) { out.unshift(StringCtor(ipv4 % 256)); ipv4 = Math.floor(ipv4 / 256); }
    return out.join('.');
  }
  function parseIPv6(input) {
    const addr = [0, 0, 0, 0, 0, 0, 0, 0];
    let piece = 0, compress = null, p = 0;
    const cs = arrayFrom(input);
    const at = (i) => cs[i];
    const isHex = (c) => c !== undefined && urlHex.test(c);
    const isDigit = (c) => c !== undefined && c >= '0' && c <= '9';
    if (at(p) === ':') { if (at(p + 1) !== ':') return null; p += 2; piece++; compress = piece; }
    while (at(p) !== undefined) {
      if (piece === 8) return null;
      if (at(p) === ':') { if (compress !== null) return null; p++; piece++; compress = piece; continue; }
      let value = 0, length = 0;
      while (length < 4 && isHex(at(p))) { value = value * 16 + parseInt(at(p), 16); p++; length++; }
      if (at(p) === '.') {
        if (length === 0) return null;
        p -= length;
        if (piece > 6) return null;
        let seen = 0;
        while (at(p) !== undefined) {
          let v4 = null;
          if (seen > 0) { if (at(p) === '.' && seen < 4) p++; else return null; }
          if (!isDigit(at(p))) return null;
          while (isDigit(at(p))) {
            const n = +at(p);
            if (v4 === null) v4 = n; else if (v4 === 0) return null; else v4 = v4 * 10 + n;
            if (v4 > 255) return null;
            p++;
          }
          addr[piece] = addr[piece] * 256 + v4;
          seen++;
          if (seen === 2 || seen === 4) piece++;
        }
        if (seen !== 4) return null;
        break;
      } else if (at(p) === ':') { p++; if (at(p) === undefined) return null; }
      else if (at(p) !== undefined) return null;
      addr[piece] = value;
      piece++;
    }
    if (compress !== null) {
      let swaps = piece - compress;
      piece = 7;
      while (piece !== 0 && swaps > 0) {
        const t = addr[compress + swaps - 1]; addr[compress + swaps - 1] = addr[piece]; addr[piece] = t;
        piece--; swaps--;
      }
    } else if (piece !== 8) return null;
    let best = -1, bestLen = 1;
    for (let i = 0; i < 8;) {
      if (addr[i] !== 0) { i++; continue; }
      let j = i; while (j < 8 && addr[j] === 0) j++;
      if (j - i > bestLen) { best = i; bestLen = j - i; }
      i = j;
    }
    let out = '', ignore0 = false;
    for (let i = 0; i < 8; i++) {
      if (ignore0 && addr[i] === 0) continue;
      ignore0 = false;
      if (best === i) { out += i === 0 ? '::' : ':'; ignore0 = true; continue; }
      out += addr[i].toString(16);
      if (i !== 7) out += ':';
    }
    return '[' + out + ']';
  }
  const forbiddenHost = /[\u0000\u0009\u000a\u000d #/:<>?@[\\\]^|]/;
  const forbiddenDomain = /[\u0000-\u001f #%/:<>?@[\\\]^|\u007f]/;
  function parseHost(input, special) {
    if (input[0] === '[') return input[input.length - 1] === ']' ? parseIPv6(input.slice(1, -1)) : null;
    if (!special) return forbiddenHost.test(input) ? null : pctEncode(input, inC0);
    let domain;
    if (/^[\x21-\x7e]*$/.test(input) && input.indexOf('%') < 0) domain = input.toLowerCase();
    else {
      try { domain = new TextDecoder('utf-8', { ignoreBOM: true }).decode(pctDecodeBytes(input)); } catch { return null; }
      domain = domain.normalize('NFC').toLowerCase().replace(/[\u3002\uff0e\uff61]/g, '.');
    }
    if (/[^\x00-\x7f]/.test(domain)) domain = domain.split('.').map((l) => (/[^\x00-\x7f]/.test(l) ? punycodeLabel(l) : l)).join('.');
    if (domain === '' || forbiddenDomain.test(domain)) return null;
    if (endsInNumber(domain)) return parseIPv4(domain);
    return domain;
  }
  const isWinLetter = (s, normalized) => s.length === 2 && urlAlpha.test(s[0]) && (s[1] === ':' || (!normalized && s[1] === '|'));
  const startsWithWinLetter = (cs, p) => cs.length - p >= 2 && urlAlpha.test(cs[p]) && (cs[p + 1] === ':' || cs[p + 1] === '|') && (cs.length - p === 2 || '/\\?#'.includes(cs[p + 2]));
  function shortenPath(u) {
    if (u.scheme === 'file' && u.path.length === 1 && isWinLetter(u.path[0], true)) return;
    u.path.pop();
  }
  const singleDot = (s) => s === '.' || s.toLowerCase() === '%2e';
  const doubleDot = (s) => { s = s.toLowerCase(); return s === '..' || s === '.%2e' || s === '%2e.' || s === '%2e%2e'; };
  // parser states
  const S_SCHEME_START = 0, S_SCHEME = 1, S_NO_SCHEME = 2, S_SPECIAL_RELATIVE_OR_AUTHORITY = 3, S_PATH_OR_AUTHORITY = 4, S_RELATIVE = 5, S_RELATIVE_SLASH = 6, S_SPECIAL_AUTHORITY_SLASHES = 7, S_SPECIAL_AUTHORITY_IGNORE_SLASHES = 8, S_AUTHORITY = 9, S_HOST = 10, S_PORT = 11, S_FILE = 12, S_FILE_SLASH = 13, S_FILE_HOST = 14, S_PATH_START = 15, S_PATH = 16, S_OPAQUE_PATH = 17, S_QUERY = 18, S_FRAGMENT = 19;
  function basicParse(input, base) {
    input = StringCtor(input).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
    const cs = arrayFrom(input);
    const u = { scheme: '', username: '', password: '', host: null, port: null, path: [], opaque: false, query: null, fragment: null };
    let state = S_SCHEME_START, buf = '', p = 0, atSign = false, inBrackets = false, passwordToken = false;
    for (; ; p++) {
      const c = cs[p];
      const special = isSpecialScheme(u.scheme);
      switch (state) {
        case S_SCHEME_START:
          if (c !== undefined && urlAlpha.test(c)) { buf += c.toLowerCase(); state = S_SCHEME; }
          else { state = S_NO_SCHEME; p--; }
          break;
        case S_SCHEME:
          if (c !== undefined && urlAlnum.test(c)) buf += c.toLowerCase();
          else if (c === ':') {
            u.scheme = buf; buf = '';
            if (u.scheme === 'file') state = S_FILE;
            else if (isSpecialScheme(u.scheme) && base && base.scheme === u.scheme) state = S_SPECIAL_RELATIVE_OR_AUTHORITY;
            else if (isSpecialScheme(u.scheme)) state = S_SPECIAL_AUTHORITY_SLASHES;
            else if (cs[p + 1] === '/') { state = S_PATH_OR_AUTHORITY; p++; }
            else { u.opaque = true; u.path = ''; state = S_OPAQUE_PATH; }
          } else { buf = ''; state = S_NO_SCHEME; p = -1; }
          break;
        case S_NO_SCHEME:
          if (!base || (base.opaque && c !== '#')) return null;
          if (base.opaque && c === '#') {
            u.scheme = base.scheme; u.path = base.path; u.opaque = true; u.query = base.query; u.fragment = ''; state = S_FRAGMENT;
          } else if (base.scheme !== 'file') { state = S_RELATIVE; p--; }
          else { state = S_FILE; p--; }
          break;
        case S_SPECIAL_RELATIVE_OR_AUTHORITY:
          if (c === '/' && cs[p + 1] === '/') { state = S_SPECIAL_AUTHORITY_IGNORE_SLASHES; p++; }
          else { state = S_RELATIVE; p--; }
          break;
        case S_PATH_OR_AUTHORITY:
          if (c === '/') state = S_AUTHORITY; else { state = S_PATH; p--; }
          break;
        case S_RELATIVE:
          u.scheme = base.scheme;
          if (c === '/') state = S_RELATIVE_SLASH;
          else if (isSpecialScheme(u.scheme) && c === '\\') state = S_RELATIVE_SLASH;
          else {
            u.username = base.username; u.password = base.password; u.host = base.host; u.port = base.port;
            u.path = base.path.slice(); u.query = base.query;
            if (c === '?') { u.query = ''; state = S_QUERY; }
            else if (c === '#') { u.fragment = ''; state = S_FRAGMENT; }
            else if (c !== undefined) { u.query = null; shortenPath(u); state = S_PATH; p--; }
          }
          break;
        case S_RELATIVE_SLASH:
          if (isSpecialScheme(u.scheme) && (c === '/' || c === '\\')) state = S_SPECIAL_AUTHORITY_IGNORE_SLASHES;
          else if (c === '/') state = S_AUTHORITY;
          else { u.username = base.username; u.password = base.password; u.host = base.host; u.port = base.port; state = S_PATH; p--; }
          break;
        case S_SPECIAL_AUTHORITY_SLASHES:
          if (c === '/' && cs[p + 1] === '/') { state = S_SPECIAL_AUTHORITY_IGNORE_SLASHES; p++; }
          else { state = S_SPECIAL_AUTHORITY_IGNORE_SLASHES; p--; }
          break;
        case S_SPECIAL_AUTHORITY_IGNORE_SLASHES:
          if (c !== '/' && c !== '\\') { state = S_AUTHORITY; p--; }
          break;
        case S_AUTHORITY:
          if (c === '@') {
            if (atSign) buf = '%40' + buf;
            atSign = true;
            for (const ch of buf) {
              if (ch === ':' && !passwordToken) { passwordToken = true; continue; }
              const enc = pctEncode(ch, inUserinfoSet);
              if (passwordToken) u.password += enc; else u.username += enc;
            }
            buf = '';
          } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special && c === '\\')) {
            if (atSign && buf === '') return null;
            p -= arrayFrom(buf).length + 1; buf = ''; state = S_HOST;
          } else buf += c;
          break;
        case S_HOST:
          if (u.scheme === 'file') { p--; state = S_FILE_HOST; break; }
          if (c === ':' && !inBrackets) {
            if (buf === '') return null;
            const h = parseHost(buf, special); if (h === null) return null;
            u.host = h; buf = ''; state = S_PORT;
          } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special && c === '\\')) {
            p--;
            if (special && buf === '') return null;
            const h = parseHost(buf, special); if (h === null) return null;
            u.host = h; buf = ''; state = S_PATH_START;
          } else { if (c === '[') inBrackets = true; if (c === ']') inBrackets = false; buf += c; }
          break;
        case S_PORT:
          if (c !== undefined && c >= '0' && c <= '9') buf += c;
          else if (c === undefined || c === '/' || c === '?' || c === '#' || (special && c === '\\')) {
            if (buf !== '') {
              const port = parseInt(buf, 10);
              if (port > 65535) return null;
              u.port = specialPorts[u.scheme] === port ? null : port;
              buf = '';
            }
            state = S_PATH_START; p--;
          } else return null;
          break;
        case S_FILE:
          u.scheme = 'file'; u.host = '';
          if (c === '/' || c === '\\') state = S_FILE_SLASH;
          else if (base && base.scheme === 'file') {
            u.host = base.host; u.path = base.path.slice(); u.query = base.query;
            if (c === '?') { u.query = ''; state = S_QUERY; }
            else if (c === '#') { u.fragment = ''; state = S_FRAGMENT; }
            else if (c !== undefined) {
              u.query = null;
              if (!startsWithWinLetter(cs, p)) shortenPath(u); else u.path = [];
              state = S_PATH; p--;
            }
          } else { state = S_PATH; p--; }
          break;
        case S_FILE_SLASH:
          if (c === '/' || c === '\\') state = S_FILE_HOST;
          else {
            if (base && base.scheme === 'file') {
              u.host = base.host;
              if (!startsWithWinLetter(cs, p) && base.path.length > 0 && isWinLetter(base.path[0], true)) u.path.push(base.path[0]);
            }
            state = S_PATH; p--;
          }
          break;
        case S_FILE_HOST:
          if (c === undefined || c === '/' || c === '\\' || c === '?' || c === '#') {
            p--;
            if (isWinLetter(buf, false)) state = S_PATH;
            else if (buf === '') { u.host = ''; state = S_PATH_START; }
            else {
              let h = parseHost(buf, true); if (h === null) return null;
              if (h === 'localhost') h = '';
              u.host = h; buf = ''; state = S_PATH_START;
            }
          } else buf += c;
          break;
        case S_PATH_START:
          if (special) { state = S_PATH; if (c !== '/' && c !== '\\') p--; }
          else if (c === '?') { u.query = ''; state = S_QUERY; }
          else if (c === '#') { u.fragment = ''; state = S_FRAGMENT; }
          else if (c !== undefined) { state = S_PATH; if (c !== '/') p--; }
          break;
        case S_PATH:
          if (c === undefined || c === '/' || (special && c === '\\') || c === '?' || c === '#') {
            const slash = c === '/' || (special && c === '\\');
            if (doubleDot(buf)) { shortenPath(u); if (!slash) u.path.push(''); }
            else if (singleDot(buf) && !slash) u.path.push('');
            else if (!singleDot(buf)) {
              if (u.scheme === 'file' && u.path.length === 0 && isWinLetter(buf, false)) buf = buf[0] + ':';
              u.path.push(buf);
            }
            buf = '';
            if (c === '?') { u.query = ''; state = S_QUERY; }
            if (c === '#') { u.fragment = ''; state = S_FRAGMENT; }
          } else { const cc = c.charCodeAt(0); buf += cc < 0x80 && !inPathSet(cc) ? c : pctEncode(c, inPathSet); }
          break;
        case S_OPAQUE_PATH:
          if (c === '?') { u.query = ''; state = S_QUERY; }
          else if (c === '#') { u.fragment = ''; state = S_FRAGMENT; }
          else if (c !== undefined) u.path += pctEncode(c, inC0);
          break;
        case S_QUERY:
          if (c === '#' || c === undefined) {
            u.query += pctEncode(buf, special ? inSpecialQuerySet : inQuerySet);
            buf = '';
            if (c === '#') { u.fragment = ''; state = S_FRAGMENT; }
          } else buf += c;
          break;
        case S_FRAGMENT:
          if (c !== undefined) { const cc = c.charCodeAt(0); u.fragment += cc < 0x80 && !inFragmentSet(cc) ? c : pctEncode(c, inFragmentSet); }
          break;
      }
      if (p >= cs.length) break;
    }
    return u;
  }
  function serializePath(u) {
    if (u.opaque) return u.path;
    let out = '';
    if (u.host === null && u.path.length > 1 && u.path[0] === '') out += '/.';
    for (const seg of u.path) out += '/' + seg;
    return out;
  }
  function serializeURL(u, noFragment) {
    let out = u.scheme + ':';
    if (u.host !== null) {
      out += '//';
      if (u.username !== '' || u.password !== '') {
        out += u.username;
        if (u.password !== '') out += ':' + u.password;
        out += '@';
      }
      out += u.host;
      if (u.port !== null) out += ':' + u.port;
    }
    out += serializePath(u);
    if (u.query !== null) out += '?' + u.query;
    if (!noFragment && u.fragment !== null) out += '#' + u.fragment;
    return out;
  }
  const urlRecord = new WeakMapCtor();
  const getRecord = (url) => {
    const u = apply(weakMapGet, urlRecord, [url]);
    if (!u) throw new TypeErrorCtor('Receiver must be an instance of class URL');
    return u;
  };
  function invalidURL(input) {
    const e = new TypeErrorCtor('Invalid URL');
    e.code = 'ERR_INVALID_URL';
    e.input = input;
    return e;
  }
  function parseWithBase(url, base) {
    let b = null;
    if (base !== undefined) { b = basicParse(StringCtor(base), null); if (!b) return null; }
    return basicParse(StringCtor(url), b);
  }
  function syncParams(url, u) {
    const sp = url._searchParams;
    if (sp) { sp._list = new URLSearchParams(u.query || '')._list; }
  }
  class URL {
    constructor(url) {
      const base = arguments[1];
      if (arguments.length === 0) { const e = new TypeErrorCtor('The "url" argument must be specified'); e.code = 'ERR_MISSING_ARGS'; throw e; }
      const u = parseWithBase(url, base);
      if (!u) throw invalidURL(StringCtor(url));
      apply(weakMapSet, urlRecord, [this, u]);
      hidden(this, '_searchParams', null);
    }
    static canParse(url) { const base = arguments[1]; return parseWithBase(url, base) !== null; }
    static parse(url) { const base = arguments[1]; try { return new URL(url, base); } catch { return null; } }
    get href() { return serializeURL(getRecord(this)); }
    set href(v) {
      const u = basicParse(StringCtor(v), null);
      if (!u) throw invalidURL(StringCtor(v));
      apply(weakMapSet, urlRecord, [this, u]);
      syncParams(this, u);
    }
    get origin() {
      const u = getRecord(this);
      if (u.scheme === 'blob') { const inner = basicParse(u.opaque ? u.path : serializePath(u), null); return inner && (inner.scheme === 'http' || inner.scheme === 'https') ? new URL(serializeURL(inner)).origin : 'null'; }
      if (u.scheme === 'file' || !isSpecialScheme(u.scheme)) return 'null';
      return u.scheme + '://' + u.host + (u.port !== null ? ':' + u.port : '');
    }
    get protocol() { return getRecord(this).scheme + ':'; }
    set protocol(v) { this._reparse((u) => { const m = /^[A-Za-z][A-Za-z0-9+\-.]*/.exec(StringCtor(v)); if (!m) return null; const s = m[0].toLowerCase(); if (isSpecialScheme(s) !== isSpecialScheme(u.scheme)) return null; if (s === 'file' && (u.username || u.password || u.port !== null)) return null; const n = { ...u, scheme: s }; if (n.port === specialPorts[s]) n.port = null; return n; }); }
    get username() { return getRecord(this).username; }
    set username(v) { const u = getRecord(this); if (u.host === null || u.host === '' || u.scheme === 'file') return; u.username = pctEncode(StringCtor(v), inUserinfoSet); }
    get password() { return getRecord(this).password; }
    set password(v) { const u = getRecord(this); if (u.host === null || u.host === '' || u.scheme === 'file') return; u.password = pctEncode(StringCtor(v), inUserinfoSet); }
    get host() { const u = getRecord(this); return u.host === null ? '' : u.host + (u.port !== null ? ':' + u.port : ''); }
    set host(v) {
      const u = getRecord(this);
      if (u.opaque) return;
      const s = StringCtor(v), m = /^(\[[^\]]*\]|[^:/?#\\]*)(?::([0-9]*))?/.exec(s);
      const h = m && m[1] !== '' ? parseHost(m[1], isSpecialScheme(u.scheme)) : null;
      if (h === null) return;
      u.host = h;
      if (m[2] !== undefined && m[2] !== '') { const port = parseInt(m[2], 10); if (port <= 65535) u.port = specialPorts[u.scheme] === port ? null : port; }
    }
    get hostname() { const u = getRecord(this); return u.host === null ? '' : u.host; }
    set hostname(v) {
      const u = getRecord(this);
      if (u.opaque) return;
      const m = /^(\[[^\]]*\]|[^:/?#\\]*)/.exec(StringCtor(v));
      const h = m[1] !== '' ? parseHost(m[1], isSpecialScheme(u.scheme)) : null;
      if (h !== null) u.host = h;
    }
    get port() { const u = getRecord(this); return u.port === null ? '' : StringCtor(u.port); }
    set port(v) {
      const u = getRecord(this);
      if (u.host === null || u.host === '' || u.scheme === 'file') return;
      const s = StringCtor(v);
      if (s === '') { u.port = null; return; }
      const m = /^[0-9]+/.exec(s);
      if (!m) return;
      const port = parseInt(m[0], 10);
      if (port > 65535) return;
      u.port = specialPorts[u.scheme] === port ? null : port;
    }
    get pathname() { return serializePath(getRecord(this)); }
    set pathname(v) {
      const u = getRecord(this);
      if (u.opaque) return;
      let s = StringCtor(v);
      if (isSpecialScheme(u.scheme) ? s[0] !== '/' && s[0] !== '\\' : s !== '' && s[0] !== '/') s = '/' + s;
      const n = basicParse(u.scheme + '://h' + s.replace(/[?#]/g, (ch) => (ch === '?' ? '%3F' : '%23')), null);
      if (n) u.path = n.path;
    }
    get search() { const u = getRecord(this); return u.query === null || u.query === '' ? '' : '?' + u.query; }
    set search(v) {
      const u = getRecord(this);
      let s = StringCtor(v);
      if (s === '') { u.query = null; syncParams(this, u); return; }
      if (s[0] === '?') s = s.slice(1);
      u.query = pctEncode(s.replace(/[\t\n\r]/g, ''), isSpecialScheme(u.scheme) ? inSpecialQuerySet : inQuerySet);
      syncParams(this, u);
    }
    get searchParams() {
      if (!this._searchParams) {
        const u = getRecord(this);
        const sp = new URLSearchParams(u.query || '');
        hidden(sp, '_url', this);
        this._searchParams = sp;
      }
      return this._searchParams;
    }
    get hash() { const u = getRecord(this); return u.fragment === null || u.fragment === '' ? '' : '#' + u.fragment; }
    set hash(v) {
      const u = getRecord(this);
      let s = StringCtor(v);
      if (s === '') { u.fragment = null; return; }
      if (s[0] === '#') s = s.slice(1);
      u.fragment = pctEncode(s.replace(/[\t\n\r]/g, ''), inFragmentSet);
    }
    _reparse(f) { const u = f(getRecord(this)); if (u) apply(weakMapSet, urlRecord, [this, u]); }
    _paramsChanged(list) {
      const u = getRecord(this);
      const q = list.map((p) => formEncode(p[0]) + '=' + formEncode(p[1])).join('&');
      u.query = q === '' ? null : q;
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
  }
  for (const k of ['_reparse', '_paramsChanged']) defineProperty(URL.prototype, k, { enumerable: false });
  for (const k of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash', 'toString', 'toJSON']) {
    const d = O.getOwnPropertyDescriptor(URL.prototype, k);
    d.enumerable = true;
    defineProperty(URL.prototype, k, d);
  }
  defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });
  return URL;
})
