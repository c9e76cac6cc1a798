/**
 * `strict` (the test suite's default): anything docs/platform.md does not allow is refused, so a misreading
 * in the node shows. `platform` (`npm run emulator`'s default): also accepts what the real platform
 * evidently accepts from its official clients. Each tolerance, with its evidence, is in README.md
 * ("Modes"); both modes refuse a bad signature, an expired timestamp, a missing field and a limit.
 */
export type EmulatorMode = 'strict' | 'platform';

export const MODES: readonly EmulatorMode[] = ['strict', 'platform'];

export interface Tolerances {
	/** A GET without Content-Length (the official Python SDK's AccountInfo and CallResult). */
	getWithoutContentLength: boolean;
	/** LandingCall's maxCallTime, speed, volume, pitch and bgsound (the official Python SDK sends them, empty unless set). */
	landingCallSdkFields: boolean;
	/** The XML roots an official SDK writes instead of the spec's (Route.sdkRoots: TemplateSMS under <SubAccount>). */
	sdkXmlRoots: boolean;
	/** A comma before a JSON array's closing bracket (the official Python SDK's JSON `datas`). */
	jsonTrailingComma: boolean;
}

const TOLERANCES: Record<EmulatorMode, Tolerances> = {
	strict: {
		getWithoutContentLength: false,
		landingCallSdkFields: false,
		sdkXmlRoots: false,
		jsonTrailingComma: false,
	},
	platform: {
		getWithoutContentLength: true,
		landingCallSdkFields: true,
		sdkXmlRoots: true,
		jsonTrailingComma: true,
	},
};

export const tolerancesOf = (mode: EmulatorMode): Tolerances => TOLERANCES[mode];

/** For options, flags and the control surface: refuses anything but the two names. */
export function parseMode(value: unknown): EmulatorMode {
	if (typeof value === 'string' && (MODES as readonly string[]).includes(value))
		return value as EmulatorMode;
	throw new Error(`mode must be ${MODES.join(' or ')}, got ${JSON.stringify(value)}`);
}
