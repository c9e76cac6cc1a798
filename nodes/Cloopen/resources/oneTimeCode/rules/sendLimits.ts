import { maskNumber } from './maskNumber';

export interface SendLimits {
	/** Codes one number may get within the window. */
	maxPerWindow: number;
	windowMinutes: number;
	/** Least time between two codes to one number. */
	cooldownSeconds: number;
}

export type SendAllowance =
	| { allowed: true; recentSends: number[] }
	| { allowed: false; rule: string; reason: string; retryAfterSeconds: number };

/** The most send times an entry keeps: the limit's own bound. */
const MAX_KEPT = 100;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Whether one more code may go to a number now: the resend cooldown, then the window limit. */
export function allowSend(
	number: string,
	recent: number[],
	limits: SendLimits,
	now: number,
): SendAllowance {
	const windowMs = limits.windowMinutes * 60_000;
	const inWindow = recent.filter((time) => time > now - windowMs).sort((a, b) => a - b);
	const last = inWindow[inWindow.length - 1];
	const masked = maskNumber(number);
	const cooldownMs = limits.cooldownSeconds * 1000;
	if (last !== undefined && now - last < cooldownMs) {
		const wait = seconds(last + cooldownMs - now);
		return {
			allowed: false,
			rule: 'resend cooldown',
			reason: `a code went to ${masked} ${Math.max(0, Math.floor((now - last) / 1000))} s ago, and Resend Cooldown is ${limits.cooldownSeconds} s; the next may be sent in ${wait} s`,
			retryAfterSeconds: wait,
		};
	}
	if (inWindow.length >= limits.maxPerWindow) {
		const oldest = inWindow[inWindow.length - limits.maxPerWindow];
		const wait = seconds(oldest + windowMs - now);
		return {
			allowed: false,
			rule: 'send limit per number',
			reason: `${masked} got ${inWindow.length} codes in the last ${limits.windowMinutes} minutes, and Max Codes per Number is ${limits.maxPerWindow} per ${limits.windowMinutes} minutes; the next may be sent in ${wait} s`,
			retryAfterSeconds: wait,
		};
	}
	const kept = [...inWindow, now].slice(-Math.min(limits.maxPerWindow, MAX_KEPT));
	return { allowed: true, recentSends: kept };
}
