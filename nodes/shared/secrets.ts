/**
 * Secrets in platform answers (subToken, voipPwd, …) and the credentials' Auth Token: how they are
 * recognised whatever their casing, left out of output items, and masked in error excerpts.
 */

const MASK = '***';

/** A key names a secret when, lower-cased and without separators, it ends like one (subToken, VOIP_PWD). */
const SECRET_KEY_ENDING = /(token|pwd|passwd|password|secret)$/;

export function isSecretKey(key: string): boolean {
	return SECRET_KEY_ENDING.test(key.toLowerCase().replace(/[^a-z0-9]/g, ''));
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
 * A copy of a decoded answer with every known secret value (the Auth Token, in any casing) masked in
 * its strings, so an answer that repeats it cannot carry it into an output item.
 */
export function withKnownSecretsMasked<T>(value: T, knownSecrets: string[]): T {
	const pattern = knownSecretPattern(knownSecrets);
	if (!pattern) return value;
	const mask = (entry: unknown): unknown => {
		if (typeof entry === 'string') return entry.replace(pattern, MASK);
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
 * The text with every secret masked: values known to be secret (the Auth Token) in any casing, and
 * the values of secret keys in JSON, XML, attributes and key=value text, even when the text is cut
 * off in the middle of one.
 */
export function maskSecretsInText(text: string, knownSecrets: string[] = []): string {
	const pattern = knownSecretPattern(knownSecrets);
	const masked = pattern ? text.replace(pattern, MASK) : text;
	return maskNamedValues(maskXmlElements(maskJsonValues(masked)));
}
