/**
 * What the node accepts from a server before it gives up. The platform answers in well under a
 * second with a few hundred bytes nested three or four levels deep; anything far beyond that is a
 * broken proxy or a hostile server, and must not hold a run or fill n8n's memory.
 */
export const DEFAULT_TIMEOUT_SECONDS = 60;
/** API answers (after decompression). */
export const MAX_API_ANSWER_BYTES = 4 * 1024 * 1024;
/** The bill file download has its own cap, set in the operation's options. */
export const DEFAULT_BILL_FILE_MAX_MB = 100;
/** A file download gets at least this long, whatever the request timeout. */
export const MIN_DOWNLOAD_SECONDS = 300;
/** Objects/arrays (JSON) or elements (XML) inside each other. */
export const MAX_ANSWER_DEPTH = 32;

export const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** How deeply a JSON text nests objects and arrays, read without parsing (stops once past `limit`). */
function jsonDepth(text: string, limit: number): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') {
			inString = true;
		} else if (char === '{' || char === '[') {
			deepest = Math.max(deepest, ++depth);
			if (deepest > limit) return deepest;
		} else if (char === '}' || char === ']') {
			depth--;
		}
	}
	return deepest;
}

/** How deeply an XML text nests elements, read without parsing (stops once past `limit`). */
function xmlDepth(text: string, limit: number): number {
	let depth = 0;
	let deepest = 0;
	for (let open = text.indexOf('<'); open !== -1; open = text.indexOf('<', open + 1)) {
		const next = text[open + 1];
		if (next === '/') depth--;
		else if (next !== '?' && next !== '!') {
			const end = text.indexOf('>', open);
			if (end === -1) break;
			if (text[end - 1] !== '/') deepest = Math.max(deepest, ++depth);
			if (deepest > limit) return deepest;
		}
	}
	return deepest;
}

/** Nesting depth of an answer in either format; counts only up to just past `limit`. */
export function answerDepth(text: string, limit = MAX_ANSWER_DEPTH): number {
	return text.trimStart().startsWith('<') ? xmlDepth(text, limit) : jsonDepth(text, limit);
}
