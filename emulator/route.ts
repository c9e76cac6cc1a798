import type { Caller } from './auth';
import type { Body, Format } from './codec';
import type { Tolerances } from './mode';
import type { EmulatorCallRecord, EmulatorState } from './state';

export interface RouteContext {
	state: EmulatorState;
	caller: Caller;
	query: Record<string, string>;
	/** The parsed body (POST); {} for GET. */
	body: Body;
	/** The request body's format: a few fields differ between XML and JSON (docs/platform.md#endpoints). */
	format: Format;
	baseUrl: string;
	/** What the emulator's mode lets through beyond docs/platform.md (mode.ts). */
	tolerances: Tolerances;
	/** Arrange the call result notification for a call that has a respUrl. */
	onCallPlaced(call: EmulatorCallRecord): void;
}

export interface RouteAnswer {
	/** The success response in its JSON shape, statusCode excluded. */
	body: Record<string, unknown>;
	/** Keys spelt differently in XML (docs/platform.md#template-sms, docs/platform.md#bill-records). */
	xmlNames?: Record<string, string>;
}

export interface Route {
	method: 'GET' | 'POST';
	/** Path after /2013-12-26/Accounts/{accountSid}/, as docs/platform.md#endpoints spells it. */
	path: string;
	/** Other spellings the platform answers in every mode (README, "Modes"). */
	aliases?: string[];
	/** XML root element of the request body (POST). */
	root?: string;
	/** Roots an official SDK writes instead, accepted in platform mode (README, "Modes"). */
	sdkRoots?: string[];
	/** docs/platform.md#sub-account-credentials: sub-account credentials cannot reach the main account's resources. */
	mainAccountOnly?: boolean;
	handle(context: RouteContext): RouteAnswer;
}
