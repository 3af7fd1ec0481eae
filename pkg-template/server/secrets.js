// The two secrets the companion holds, cut out of everything it answers or logs: the key, in every
// spelling a service or a library might echo it (any case, Base64 at any offset, URL-encoded), and
// the callback tokens (a callback URL's last segment).

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Base64 of `bytes`, without padding, in the standard or the URL alphabet. */
function base64(/** @type {Uint8Array} */ bytes, url = false) {
  const abc = url ? STANDARD.slice(0, 62) + "-_" : STANDARD;
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += abc[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** @param {string} s */
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * One character as a text may spell it: itself, percent-encoded (any case, encoded again any number
 * of times: `%2F`, `%2f`, `%252F`) or as a JSON or JavaScript escape (`\u002F`, escaped again: `\\u002F`).
 * @param {string} hex the character's code, two hex digits (a pattern of them)
 * @param {string} [plain] the character itself, as a pattern
 */
const spelled = (hex, plain) => `(?:${plain ? `${plain}|` : ""}%(?:25)*${hex}|\\\\+u00${hex})`;

/** Codes of the characters a token is made of: `-`, digits, letters, `_`. */
const TOKEN_CODES = "(?:2d|3[0-9]|[46][1-9a-f]|[57][0-9a]|5f)";

/**
 * Callback URLs' tokens, wherever a URL, a path or a text names one, in any spelling: slashes plain,
 * escaped (`\/`, as JSON may write them, `\\/` in JSON inside JSON), percent-encoded in any case or
 * twice, as HTML writes them (`&#x2F;`), mixed. The first group is the path up to the token, which is kept as it is spelled.
 */
const CALLBACK_TOKEN = new RegExp(
  `(${[..."callbacks"].map((c) => spelled(c.charCodeAt(0).toString(16), c)).join("")}${spelled("2f", "\\\\*/|&#(?:x0*2f|0*47);")})` +
    `(?:[A-Za-z0-9_-]|${spelled(TOKEN_CODES)})+`,
  "gi",
);

/**
 * The function that cuts the key's spellings and callback tokens out of a text.
 * @param {string} key
 * @returns {(text: unknown) => string}
 */
export function scrubber(key) {
  const bytes = new TextEncoder().encode(key);
  /** @type {string[]} */
  const encoded = [];
  // The key's Base64 depends on where it starts in its 3-byte group: for each start, the characters
  // that only the key's own bits decide.
  for (const offset of [0, 1, 2]) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const from = Math.ceil((offset * 8) / 6);
    const to = Math.floor(((offset + bytes.length) * 8) / 6);
    for (const url of [false, true]) encoded.push(base64(padded, url).slice(from, to));
  }
  const spelled = new RegExp([key, encodeURIComponent(key)].map(escape).join("|"), "gi");
  const based = new RegExp([...new Set(encoded)].filter((s) => s.length >= 8).map(escape).join("|") || "(?!)", "g");
  return (text) =>
    String(text)
      .replace(spelled, "[redacted]")
      .replace(based, "[redacted]")
      .replace(CALLBACK_TOKEN, "$1[redacted]");
}
