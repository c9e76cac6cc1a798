/**
 * What `npm run emulator -- --json` prints once it is ready: one line of JSON, made to be read by a
 * program (the benches start the emulator so), where the banner is made to be read by a person.
 * The one definition both the command line and its readers use.
 */
import type { EmulatorMode } from './mode';

export interface EmulatorFacts {
	baseUrl: string;
	controlUrl: string;
	accountSid: string;
	authToken: string;
	appId: string;
	mode: EmulatorMode;
	/** the emulator's own process: SIGTERM stops it cleanly */
	pid: number;
}

const TEXT_FIELDS = ['baseUrl', 'controlUrl', 'accountSid', 'authToken', 'appId', 'mode'] as const;

/** The line the command line prints. */
export const factsLine = (facts: EmulatorFacts): string => JSON.stringify(facts);

/** The facts from that line; throws, naming what is missing, for anything else. */
export function readFactsLine(line: string): EmulatorFacts {
	let facts: Record<string, unknown>;
	try {
		facts = JSON.parse(line) as Record<string, unknown>;
	} catch {
		throw new Error(`the emulator's facts line is not JSON: ${line.slice(0, 200)}`);
	}
	const missing = [
		...TEXT_FIELDS.filter((name) => typeof facts?.[name] !== 'string' || facts[name] === ''),
		...(Number.isSafeInteger(facts?.pid) ? [] : ['pid']),
	];
	if (missing.length > 0)
		throw new Error(
			`the emulator's facts line has no ${missing.join(', ')}: ${line.slice(0, 200)}`,
		);
	return facts as unknown as EmulatorFacts;
}
