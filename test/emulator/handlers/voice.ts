import { dateTime } from '../clock';
import { fail } from '../errors';
import { checkPhone, checkUrl, checkWavList, Fields } from '../fields';
import type { Route, RouteContext } from '../route';
import { PRICES } from '../state';
import { requireApp, requireBalance } from './common';

const DECLARED_RANGES = { playTimes: [1, 3] } as const;

/** Charges the account and places the call, on behalf of whoever signed (main or sub-account). */
function placeChargedCall(
	{ state, caller, body, onCallPlaced }: Pick<RouteContext, 'state' | 'caller' | 'body' | 'onCallPlaced'>,
	kind: 'voiceVerify' | 'landingCall',
	call: { to: string; userData?: string; respUrl?: string },
) {
	requireBalance(state, PRICES[kind]);
	state.charge(PRICES[kind]);
	const placed = state.placeCall({
		kind,
		accountSid: caller.kind === 'sub' ? caller.subAccount.subAccountSid : state.account.accountSid,
		...call,
		fields: body,
	});
	onCallPlaced(placed);
	return placed;
}

/** Spec 4.1 and 4.2: one path; custom audio is told apart by playVerifyCode. */
export const voiceVerify: Route = {
	method: 'POST',
	path: 'Calls/VoiceVerify',
	root: 'VoiceVerify',
	handle({ state, body, caller, onCallPlaced }) {
		const fields = new Fields(body);
		requireApp(state, fields);
		const playVerifyCode = fields.text('playVerifyCode');
		const verifyCode = playVerifyCode === undefined ? fields.required('verifyCode', 'verifyCodeLength') : fields.text('verifyCode');
		if (verifyCode !== undefined && !/^[A-Za-z0-9]{4,8}$/.test(verifyCode)) fail('verifyCodeLength', verifyCode);
		checkWavList('playVerifyCode', playVerifyCode);
		const to = fields.required('to', 'badNumber');
		checkPhone('to', to);
		checkPhone('displayNum', fields.text('displayNum'));
		fields.integer('playTimes', ...DECLARED_RANGES.playTimes, 'playTimes');
		const respUrl = fields.text('respUrl');
		checkUrl('respUrl', respUrl);
		const lang = fields.text('lang');
		if (lang !== undefined && lang !== 'en' && lang !== 'zh') fail('badParameter', 'lang must be en or zh');
		const userData = fields.text('userData');
		checkWavList('welcomePrompt', fields.text('welcomePrompt'));
		fields.integer('maxCallTime', 1, 86400);
		fields.noOthers();

		const call = placeChargedCall({ state, caller, body, onCallPlaced }, 'voiceVerify', { to, userData, respUrl });
		return { body: { VoiceVerify: { callSid: call.callSid, dateCreated: dateTime(call.createdAt) } } };
	},
};

const SPEECH_RANGES: Record<string, [number, number]> = {
	txtSpeed: [-500, 500],
	txtVolume: [-20, 20],
	txtPitch: [-500, 500],
	txtBgsound: [0, 6],
};

/** In XML mediaNameType is the `type` attribute of mediaName (spec 4.3); in JSON a field. */
function readMedia(fields: Fields, isXml: boolean) {
	if (!isXml) return { mediaName: fields.text('mediaName'), mediaNameType: fields.text('mediaNameType') };
	const raw = fields.raw('mediaName');
	if (raw === undefined || typeof raw === 'string') return { mediaName: raw || undefined, mediaNameType: undefined };
	const element = raw as Record<string, unknown>;
	const unknown = Object.keys(element).filter((key) => key !== '#text' && key !== '@type');
	if (unknown.length > 0) fail('badParameter', `mediaName has unexpected ${unknown.join(', ')}`);
	return { mediaName: (element['#text'] as string | undefined) || undefined, mediaNameType: element['@type'] as string | undefined };
}

export const landingCall: Route = {
		method: 'POST',
		path: 'Calls/LandingCalls/',
		root: 'LandingCall',
		handle({ state, body, caller, format, onCallPlaced }) {
			const fields = new Fields(body);
			requireApp(state, fields);
			const to = fields.required('to', 'badNumber');
			checkPhone('to', to);
			const { mediaName, mediaNameType } = readMedia(fields, format === 'xml');
			checkWavList('mediaName', mediaName);
			if (mediaNameType !== undefined && mediaNameType !== '0' && mediaNameType !== '1') fail('badParameter', 'mediaNameType must be 0 or 1');
			const mediaTxt = fields.text('mediaTxt');
			if (mediaName === undefined && mediaTxt === undefined) fail('badParameter', 'mediaName or mediaTxt is required');
			checkPhone('displayNum', fields.text('displayNum'));
			fields.integer('playTimes', 1, 3, 'playTimes');
			const respUrl = fields.text('respUrl');
			checkUrl('respUrl', respUrl);
			const userData = fields.text('userData');
			for (const [name, [min, max]] of Object.entries(SPEECH_RANGES)) fields.integer(name, min, max);
			fields.integer('playMode', 0, 1);
			fields.noOthers();

			const call = placeChargedCall({ state, caller, body, onCallPlaced }, 'landingCall', { to, userData, respUrl });
			return {
				body: {
					LandingCall: { callSid: call.callSid, dateCreated: dateTime(call.createdAt), orderid: `CM${call.callSid.slice(0, 10)}` },
				},
			};
		},
};
