import type { JudgedCode } from '../rules/checkVerdict';
import type { SendLimits } from '../rules/sendLimits';

/** What the store keeps of one code: never the code, only its keyed digest. */
export interface KeptCode extends JudgedCode {
	issuedAt: number;
}

/** What the store keeps of one number: when it got codes, and its latest code. */
export interface NumberEntry {
	sends: number[];
	/** Until when the entry counts for anything (its last send's window, its code's expiry): then it is dropped. */
	keepUntil: number;
	code?: KeptCode;
	/** The limits in force at its last send, so Get Status judges it as that Send did; absent in older entries. */
	limits?: SendLimits;
}

/**
 * How a number's entry is written in its row, short so a row holds more numbers (docs/one-time-codes.md,
 * capacity): `[sends, keepUntil, code?, limits?]`, times as base-36 milliseconds (exact, 8 characters), the code as
 * `[id, digest, issuedAt, expiresAt, maxAttempts, attempts, used (0/1), length, "d" | "l"]` (0 for none
 * when limits follow), the limits as `[maxPerWindow, windowMinutes, cooldownSeconds]`.
 */
type StoredEntry = [string[], string, (StoredCode | 0)?, StoredLimits?];
type StoredLimits = [number, number, number];
type StoredCode = [string, string, string, string, number, number, 0 | 1, number, 'd' | 'l'];

const time = (ms: number) => Math.round(ms).toString(36);
const timeOf = (text: unknown) =>
	typeof text === 'string' && /^[0-9a-z]{1,11}$/.test(text) ? parseInt(text, 36) : Number.NaN;
const whole = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value);

export function encodeEntry(entry: NumberEntry): StoredEntry {
	const { code } = entry;
	const stored: StoredEntry = [entry.sends.map(time), time(entry.keepUntil)];
	if (code)
		stored.push([
			code.id,
			code.digest,
			time(code.issuedAt),
			time(code.expiresAt),
			code.maxAttempts,
			code.attempts,
			code.used ? 1 : 0,
			code.length,
			code.alphabet === 'digits' ? 'd' : 'l',
		]);
	const { limits } = entry;
	if (limits) {
		if (!code) stored.push(0);
		stored.push([limits.maxPerWindow, limits.windowMinutes, limits.cooldownSeconds]);
	}
	return stored;
}

function decodeLimits(value: unknown): SendLimits | undefined {
	if (!Array.isArray(value) || value.length !== 3 || !value.every(whole)) return undefined;
	const [maxPerWindow, windowMinutes, cooldownSeconds] = value as number[];
	return { maxPerWindow, windowMinutes, cooldownSeconds };
}

function decodeCode(value: unknown): KeptCode | undefined {
	if (!Array.isArray(value) || value.length !== 9) return undefined;
	const [id, digest, issued, expires, maxAttempts, attempts, used, length, alphabet] = value;
	const code: KeptCode = {
		id: String(id),
		digest: String(digest),
		issuedAt: timeOf(issued),
		expiresAt: timeOf(expires),
		maxAttempts: Number(maxAttempts),
		attempts: Number(attempts),
		used: used === 1,
		length: Number(length),
		alphabet: alphabet === 'd' ? 'digits' : 'lettersAndDigits',
	};
	const sound =
		typeof id === 'string' &&
		typeof digest === 'string' &&
		Number.isFinite(code.issuedAt) &&
		Number.isFinite(code.expiresAt) &&
		[maxAttempts, attempts, length].every(whole) &&
		(used === 0 || used === 1) &&
		(alphabet === 'd' || alphabet === 'l');
	return sound ? code : undefined;
}

/** A day: how long an entry in the first form (an object, without keepUntil) counts after its last event. */
const DAY_MS = 24 * 3_600_000;

/** An entry in the node's first form (`{ sends, code }` of millisecond numbers), as tables made then hold. */
function decodeFirstForm(value: unknown): NumberEntry | undefined {
	const { sends, code } = value as { sends?: unknown; code?: Record<string, unknown> };
	if (!Array.isArray(sends) || !sends.every((time) => Number.isFinite(time))) return undefined;
	const kept =
		code === undefined
			? undefined
			: decodeCode([
					code.id,
					code.digest,
					time(Number(code.issuedAt)),
					time(Number(code.expiresAt)),
					code.maxAttempts,
					code.attempts,
					code.used === true ? 1 : code.used === false ? 0 : -1,
					code.length,
					code.alphabet === 'digits' ? 'd' : code.alphabet === 'lettersAndDigits' ? 'l' : '',
				]);
	if (code !== undefined && !kept) return undefined;
	const last = Math.max(0, ...(sends as number[]), kept?.expiresAt ?? 0);
	return { sends: sends as number[], keepUntil: last + DAY_MS, ...(kept ? { code: kept } : {}) };
}

/** The entry its stored form holds, or undefined when it is not one the node wrote. */
export function decodeEntry(value: unknown): NumberEntry | undefined {
	if (typeof value === 'object' && value !== null && !Array.isArray(value))
		return decodeFirstForm(value);
	if (!Array.isArray(value) || value.length < 2 || value.length > 4 || !Array.isArray(value[0]))
		return undefined;
	const sends = (value[0] as unknown[]).map(timeOf);
	const keepUntil = timeOf(value[1]);
	if (!sends.every(Number.isFinite) || !Number.isFinite(keepUntil)) return undefined;
	const entry: NumberEntry = { sends, keepUntil };
	if (value.length > 2 && !(value[2] === 0 && value.length === 4)) {
		const code = decodeCode(value[2]);
		if (!code) return undefined;
		entry.code = code;
	}
	if (value.length === 4) {
		const limits = decodeLimits(value[3]);
		if (!limits) return undefined;
		entry.limits = limits;
	}
	return entry;
}
