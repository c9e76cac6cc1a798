/** The emulator's time: real time plus whatever a test moved it forward. */
export class Clock {
	private offsetMs = 0;

	now(): number {
		return Date.now() + this.offsetMs;
	}

	advance(ms: number): void {
		this.offsetMs += ms;
	}

	reset(): void {
		this.offsetMs = 0;
	}
}

const CST_MS = 8 * 3600 * 1000;
const pad = (value: number) => String(value).padStart(2, '0');

/** Fields of a time in China Standard Time, the platform's zone. */
function cst(ms: number) {
	const d = new Date(ms + CST_MS);
	return {
		y: d.getUTCFullYear(),
		M: pad(d.getUTCMonth() + 1),
		d: pad(d.getUTCDate()),
		H: pad(d.getUTCHours()),
		m: pad(d.getUTCMinutes()),
		s: pad(d.getUTCSeconds()),
	};
}

/** yyyy-MM-dd HH:mm:ss, the form of call dateCreated (docs/platform.md#voice-notification). */
export const dateTime = (ms: number) => {
	const t = cst(ms);
	return `${t.y}-${t.M}-${t.d} ${t.H}:${t.m}:${t.s}`;
};

/** yyyyMMddHHmmss, the form of SMS dateCreated (docs/platform.md#template-sms) and of signature timestamps. */
export const compactTime = (ms: number) => {
	const t = cst(ms);
	return `${t.y}${t.M}${t.d}${t.H}${t.m}${t.s}`;
};

/** Reads a yyyyMMddHHmmss China Standard Time timestamp; undefined when it is not one. */
export function parseCompactTime(text: string): number | undefined {
	const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
	if (!match) return undefined;
	const [y, M, d, H, m, s] = match.slice(1).map(Number);
	const ms = Date.UTC(y, M - 1, d, H, m, s) - CST_MS;
	// Reject 20261332…: a date that JavaScript would roll over is not a valid timestamp.
	return compactTime(ms) === text ? ms : undefined;
}
