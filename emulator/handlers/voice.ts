import { fail } from '../errors';
import { checkPhone, checkUrl, checkWavList, Fields } from '../fields';
import type { Route, RouteContext } from '../route';
import { PRICES } from '../state';
import { ownerSid, requireApp, requireBalance } from './common';

/** Charges the main account (only it bills, docs/platform.md#values-and-states) and places the call for whoever signed. */
function placeChargedCall(
	context: RouteContext,
	kind: 'voiceVerify' | 'landingCall',
	call: { to: string; userData?: string; respUrl?: string },
) {
	const { state } = context;
	requireBalance(state, PRICES[kind]);
	state.charge(PRICES[kind]);
	const placed = state.placeCall({
		kind,
		accountSid: ownerSid(context),
		...call,
		fields: context.body,
	});
	context.onCallPlaced(placed);
	return placed;
}

/** The optional fields both voice operations share. */
function readCommon(fields: Fields) {
	checkPhone('displayNum', fields.text('displayNum'));
	fields.integer('playTimes', 1, 3, 'playTimes');
	const respUrl = fields.text('respUrl');
	checkUrl('respUrl', respUrl);
	return { respUrl, userData: fields.text('userData') };
}

/**
 * The two voice verification variants share one path; the platform does not say how the platform tells them apart, so the
 * emulator does it by playVerifyCode: present → custom audio (verifyCode optional), absent →
 * standard template (verifyCode required).
 */
const COMMON_FIELDS = ['appId', 'to', 'displayNum', 'playTimes', 'respUrl', 'userData'] as const;
const VOICE_VERIFY_FIELDS = [
	...COMMON_FIELDS,
	'verifyCode',
	'playVerifyCode',
	'lang',
	'welcomePrompt',
	'maxCallTime',
];
const LANDING_CALL_FIELDS = [
	...COMMON_FIELDS,
	'mediaName',
	'mediaNameType',
	'mediaTxt',
	'txtSpeed',
	'txtVolume',
	'txtPitch',
	'txtBgsound',
	'playMode',
];
/** What the official Python SDK sends besides (platform mode): its names for the speech settings, and maxCallTime. */
const SDK_LANDING_CALL_FIELDS = ['maxCallTime', 'speed', 'volume', 'pitch', 'bgsound'];

export const voiceVerify: Route = {
	method: 'POST',
	path: 'Calls/VoiceVerify',
	root: 'VoiceVerify',
	handle(context) {
		const fields = new Fields(context.body, VOICE_VERIFY_FIELDS);
		requireApp(context, fields);
		const playVerifyCode = fields.text('playVerifyCode');
		const verifyCode =
			playVerifyCode === undefined
				? fields.required('verifyCode', 'verifyCodeLength')
				: fields.text('verifyCode');
		if (verifyCode !== undefined && !/^[A-Za-z0-9]{4,8}$/.test(verifyCode))
			fail('verifyCodeLength', verifyCode);
		checkWavList('playVerifyCode', playVerifyCode);
		const to = fields.required('to', 'badNumber');
		checkPhone('to', to);
		const common = readCommon(fields);
		const lang = fields.text('lang');
		if (lang !== undefined && lang !== 'en' && lang !== 'zh')
			fail('badParameter', 'lang must be en or zh');
		checkWavList('welcomePrompt', fields.text('welcomePrompt'), true);
		// Unit and maximum not documented (docs/platform.md#voice-verification): any positive whole number.
		fields.integer('maxCallTime', 1, Number.MAX_SAFE_INTEGER);

		const call = placeChargedCall(context, 'voiceVerify', { to, ...common });
		return { body: { VoiceVerify: { callSid: call.callSid, dateCreated: call.dateCreated } } };
	},
};

const SPEECH_RANGES: Array<[string, number, number]> = [
	['txtSpeed', -500, 500],
	['txtVolume', -20, 20],
	['txtPitch', -500, 500],
	['txtBgsound', 0, 6],
];
/** The SDK's names, read with the documented ranges: no source says they mean anything else. */
const SDK_SPEECH_RANGES: Array<[string, number, number]> = [
	['speed', -500, 500],
	['volume', -20, 20],
	['pitch', -500, 500],
	['bgsound', 0, 6],
];

/** In XML mediaNameType is the `type` attribute of mediaName (docs/platform.md#voice-notification); in JSON its own field. */
function readMedia(fields: Fields, isXml: boolean): { mediaName?: string; mediaNameType?: string } {
	if (!isXml)
		return { mediaName: fields.text('mediaName'), mediaNameType: fields.text('mediaNameType') };
	const raw = fields.raw('mediaName');
	if (raw === undefined || typeof raw === 'string') return { mediaName: raw || undefined };
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
		return fail('badParameter', 'mediaName must appear once');
	const element = raw as Record<string, unknown>;
	const unknown = Object.keys(element).filter((key) => key !== '#text' && key !== '@type');
	if (unknown.length > 0) fail('badParameter', `mediaName has unexpected ${unknown.join(', ')}`);
	return {
		mediaName: (element['#text'] as string | undefined) || undefined,
		mediaNameType: element['@type'] as string | undefined,
	};
}

export const landingCall: Route = {
	method: 'POST',
	path: 'Calls/LandingCalls/',
	// The documentation writes the slash, every official client leaves it out: the platform answers both.
	aliases: ['Calls/LandingCalls'],
	root: 'LandingCall',
	handle(context) {
		const sdkFields = context.tolerances.landingCallSdkFields;
		// In XML mediaNameType is an attribute, so as an element it is unknown there.
		const known = [...LANDING_CALL_FIELDS, ...(sdkFields ? SDK_LANDING_CALL_FIELDS : [])];
		const fields = new Fields(
			context.body,
			context.format === 'xml' ? known.filter((name) => name !== 'mediaNameType') : known,
		);
		requireApp(context, fields);
		const to = fields.required('to', 'badNumber');
		checkPhone('to', to);
		const { mediaName, mediaNameType } = readMedia(fields, context.format === 'xml');
		checkWavList('mediaName', mediaName);
		if (mediaNameType !== undefined && mediaNameType !== '0' && mediaNameType !== '1')
			fail('badParameter', 'mediaNameType must be 0 or 1');
		const mediaTxt = fields.text('mediaTxt');
		if (mediaName === undefined && mediaTxt === undefined)
			fail('badParameter', 'one of mediaName and mediaTxt is required');
		const common = readCommon(fields);
		// The ranges are checked even when mediaName makes them moot: a value out of range is a client bug.
		for (const [name, min, max] of SPEECH_RANGES) fields.integer(name, min, max);
		fields.integer('playMode', 0, 1);
		if (sdkFields) {
			for (const [name, min, max] of SDK_SPEECH_RANGES) fields.integer(name, min, max);
			fields.integer('maxCallTime', 1, Number.MAX_SAFE_INTEGER);
		}

		const call = placeChargedCall(context, 'landingCall', { to, ...common });
		return {
			body: {
				LandingCall: {
					callSid: call.callSid,
					dateCreated: call.dateCreated,
					orderid: `CM${call.callSid.slice(0, 10).toUpperCase()}`,
				},
			},
		};
	},
};
