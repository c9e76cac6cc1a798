const MASK = '***';
const MAX_DEPTH = 5;
/** The parts of an n8n error that hold text from the answer or the request; its node is left alone. */
const ERROR_TEXTS = [
	'message',
	'description',
	'stack',
	'context',
	'details',
	'messages',
	'errorResponse',
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The error with the code masked wherever it stands alone in its texts (message, description, its
 * context, the platform's statusMsg, and the same in its cause): a server that repeats the request
 * body in its answer must not carry the code into an error, a log line or an error item. Matching the
 * code as a whole word keeps statusCode 000000 intact when the code is 0000.
 */
export function withCodeHidden<T>(error: T, code: string): T {
	if (code === '' || typeof error !== 'object' || error === null) return error;
	const pattern = new RegExp(`(?<![A-Za-z0-9])${escape(code)}(?![A-Za-z0-9])`, 'gi');
	// Copies, not edits: a context object may be shared with what the node returned.
	const copy = (value: unknown, depth: number): unknown => {
		if (typeof value === 'string') return value.replace(pattern, MASK);
		if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
		if (Array.isArray(value)) return value.map((entry) => copy(entry, depth + 1));
		if (Object.getPrototypeOf(value) !== Object.prototype) return value;
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, copy(entry, depth + 1)]),
		);
	};
	const scrubError = (target: Record<string, unknown>, depth: number) => {
		for (const key of ERROR_TEXTS) {
			if (key in target) target[key] = copy(target[key], 0);
		}
		const cause = target.cause;
		if (depth < MAX_DEPTH && typeof cause === 'object' && cause !== null)
			scrubError(cause as Record<string, unknown>, depth + 1);
	};
	scrubError(error as Record<string, unknown>, 0);
	return error;
}
