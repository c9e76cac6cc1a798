/**
 * Secrets in platform answers (subToken, voipPwd, …), the credentials' Auth Token and the request
 * signature `sig`: how they are recognised whatever their casing, left out of output items, and
 * masked in error excerpts, messages and URLs.
 */

const MASK = '***';

/** A key names a secret when, lower-cased and without separators, it ends like one (subToken, VOIP_PWD). */
const SECRET_KEY_ENDING = /(token|pwd|passwd|password|secret)$/;
/**
 * Secret names that end like no other: `sig`, the signature in every request's query, which with the
 * Authorization header (not secret on its own) replays the request for a day.
 */
const SECRET_NAMES = new Set(['sig']);

export function isSecretKey(key: string): boolean {
	const name = key.toLowerCase().replace(/[^a-z0-9]/g, '');
	return SECRET_KEY_ENDING.test(name) || SECRET_NAMES.has(name);
}

/**
 * A signature's value (32 hex digits) after "sig" and whatever a page writes between them: = or :,
 * quotes, > of an element, or their escapes (%3D, \u003d, &quot;); "sig" preceded by anything but
 * a letter, or by the letter ending an escape (\u0026sig=, \u003fsig=, %26sig%3D; not "design=").
 */
const SIGNATURE_VALUE =
	/(?:(?<![a-z])|(?<=\\u00[0-9a-f]{2}|%[0-9a-f]{2}))(sig(?:\\?["']|&quot;)?\s*(?:[:=>]|%3d|\\u003d)\s*(?:\\?["']|&quot;)?)[0-9a-f]{32}(?![0-9a-f])/gi;

/** ?name=value, &name=value and #name=value written percent-encoded (%3Fsig%3D…, %26subToken%3D…). */
const ENCODED_PARAMETER = /(%3f|%26|%23)([a-z_][\w.-]*)(%3d)((?:(?!%26|%23)[^&#\s"'<>])*)/gi;

/** The text with signature values and percent-encoded secret parameters masked. */
export function withSignaturesMasked(text: string): string {
	return text
		.replace(SIGNATURE_VALUE, `$1${MASK}`)
		.replace(ENCODED_PARAMETER, (whole, before: string, name: string, equals: string) =>
			isSecretKey(name) ? `${before}${name}${equals}${MASK}` : whole,
		);
}

/** A copy without secret keys at any depth. */
export function withoutSecretFields<T>(value: T): T {
	if (Array.isArray(value)) return value.map((entry) => withoutSecretFields(entry)) as T;
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(
		Object.entries(value)
			.filter(([key]) => !isSecretKey(key))
			.map(([key, entry]) => [key, withoutSecretFields(entry)]),
	) as T;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const knownSecretPattern = (knownSecrets: string[]) => {
	const usable = knownSecrets.filter((secret) => secret.length >= 4).map(escapeRegExp);
	return usable.length > 0 ? new RegExp(usable.join('|'), 'gi') : undefined;
};

/**
 * A copy of a decoded answer with every known secret value (the Auth Token, in any casing) and every
 * signature value masked in its strings, so an answer that repeats them cannot carry them into an
 * output item.
 */
export function withKnownSecretsMasked<T>(value: T, knownSecrets: string[]): T {
	const pattern = knownSecretPattern(knownSecrets) ?? /(?!)/g;
	const mask = (entry: unknown): unknown => {
		if (typeof entry === 'string') return withSignaturesMasked(entry.replace(pattern, MASK));
		if (Array.isArray(entry)) return entry.map(mask);
		if (typeof entry !== 'object' || entry === null) return entry;
		return Object.fromEntries(
			Object.entries(entry).map(([key, inner]) => [key.replace(pattern, MASK), mask(inner)]),
		);
	};
	return mask(value) as T;
}

/** Where a JSON value starting at `start` ends; a cut-off value ends with the text. */
function jsonValueEnd(text: string, start: number): number {
	let position = start;
	const first = text[position];
	if (first === '"') {
		position++;
		while (position < text.length && text[position] !== '"')
			position += text[position] === '\\' ? 2 : 1;
		return Math.min(position + 1, text.length);
	}
	if (first === '{' || first === '[') {
		let depth = 0;
		while (position < text.length) {
			const char = text[position];
			if (char === '"') {
				position = jsonValueEnd(text, position);
				continue;
			}
			if (char === '{' || char === '[') depth++;
			if (char === '}' || char === ']') depth--;
			position++;
			if (depth === 0) return position;
		}
		return text.length;
	}
	while (position < text.length && !/[,}\]\s]/.test(text[position])) position++;
	return position;
}

function decodeJsonKey(raw: string): string {
	try {
		return JSON.parse(`"${raw}"`) as string;
	} catch {
		return raw;
	}
}

/** "subToken": <value> (any JSON value, also cut off) → "subToken": "***". */
function maskJsonValues(text: string): string {
	const key = /"((?:[^"\\]|\\.)*)"\s*:\s*/g;
	let result = '';
	let copied = 0;
	for (let match = key.exec(text); match; match = key.exec(text)) {
		if (!isSecretKey(decodeJsonKey(match[1]))) continue;
		const valueStart = match.index + match[0].length;
		const valueEnd = jsonValueEnd(text, valueStart);
		result += `${text.slice(copied, valueStart)}"${MASK}"`;
		copied = valueEnd;
		key.lastIndex = Math.max(valueEnd, key.lastIndex);
	}
	return result + text.slice(copied);
}

/** <subToken>…</subToken> (nested or cut off too) → <subToken>***</subToken>. */
function maskXmlElements(text: string): string {
	const open = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(\s[^<>]*)?>/g;
	let result = '';
	let copied = 0;
	for (let match = open.exec(text); match; match = open.exec(text)) {
		if (!isSecretKey(match[2]) || match[0].endsWith('/>')) continue;
		const contentStart = match.index + match[0].length;
		const closing = new RegExp(`</\\s*${escapeRegExp((match[1] ?? '') + match[2])}\\s*>`, 'i');
		const found = closing.exec(text.slice(contentStart));
		const contentEnd = found ? contentStart + found.index : text.length;
		result += `${text.slice(copied, contentStart)}${MASK}`;
		copied = contentEnd;
		open.lastIndex = Math.max(contentEnd, open.lastIndex);
	}
	return result + text.slice(copied);
}

/** subToken="…", voipPwd=…, subtoken: … (attributes, query strings, plain text pages). */
function maskNamedValues(text: string): string {
	return text.replace(
		// Names start only where a word starts: scanning from inside one would take quadratic time.
		/(?<![\w.-])([A-Za-z_][\w.-]*)(\s*[:=]\s*)("[^"]*(?:"|$)|'[^']*(?:'|$)|[^\s&"'<>,;]*)/g,
		(whole, name: string, separator: string, value: string) =>
			isSecretKey(name) && value !== '' && !value.startsWith(`"${MASK}`)
				? `${name}${separator}${MASK}`
				: whole,
	);
}

/**
 * The text with every secret masked: values known to be secret (the Auth Token) in any casing,
 * signature values, and the values of secret keys in JSON, XML, attributes, key=value text and
 * percent-encoded queries, even when the text is cut off in the middle of one.
 */
export function maskSecretsInText(text: string, knownSecrets: string[] = []): string {
	const pattern = knownSecretPattern(knownSecrets);
	const masked = withSignaturesMasked(pattern ? text.replace(pattern, MASK) : text);
	return maskNamedValues(maskXmlElements(maskJsonValues(masked)));
}
