import { fail } from '../errors';
import { Fields, checkUrl } from '../fields';
import type { Route, RouteContext } from '../route';
import type { EmulatorCallRecord } from '../state';
import { requireApp } from './common';

/** A caller sees its own calls; the main account sees all of its sub-accounts' calls too. */
function findCall(context: RouteContext, callSid: string): EmulatorCallRecord {
	const call = context.state.calls.find((entry) => entry.callSid === callSid);
	const visible =
		call &&
		(context.caller.kind === 'main' || call.accountSid === context.caller.subAccount.subAccountSid);
	return visible ? call! : fail('callUnknown', callSid);
}

/** XML: <QueryCallState callid="…" action="…"/>; JSON: {"QueryCallState":{"callid":…,"action":…}}. */
function readQuery(raw: unknown, isXml: boolean): { callid?: string; action?: string } {
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
		return fail('badParameter', 'QueryCallState is required');
	const prefix = isXml ? '@' : '';
	const entries = raw as Record<string, unknown>;
	const unknown = Object.keys(entries).filter(
		(key) => key !== `${prefix}callid` && key !== `${prefix}action`,
	);
	if (unknown.length > 0)
		fail('badParameter', `QueryCallState has unexpected ${unknown.join(', ')}`);
	// Empty is absent, as for every other optional field (the official SDK sends action="" unless set).
	const text = (key: string) => {
		const value = entries[prefix + key];
		if (value !== undefined && typeof value !== 'string')
			fail('badParameter', `${key} must be a string`);
		return value === '' ? undefined : (value as string | undefined);
	};
	return { callid: text('callid'), action: text('action') };
}

export const callState: Route = {
	method: 'POST',
	path: 'ivr/call',
	root: 'Request',
	handle(context) {
		const fields = new Fields(context.body, ['Appid', 'QueryCallState']);
		requireApp(context, fields, 'Appid');
		const { callid, action } = readQuery(fields.raw('QueryCallState'), context.format === 'xml');
		if (!callid) fail('badParameter', 'callid is required');
		// The documented examples carry callid in the query string as well; the two must agree.
		if (context.query.callid !== callid)
			fail('badParameter', 'callid in the query string must match the body');
		// A callback address for the query result; its payload is not shown, so nothing is sent there.
		checkUrl('action', action);
		const call = findCall(context, callid!);
		return { body: { callSid: call.callSid, state: context.state.callEnded(call) ? '0' : '1' } };
	},
};

export const callResult: Route = {
	method: 'GET',
	path: 'CallResult',
	handle(context) {
		const callsid = context.query.callsid;
		if (!callsid) fail('badParameter', 'callsid is required');
		const call = findCall(context, callsid);
		if (!context.state.callEnded(call)) fail('callNotEnded', callsid);
		return { body: { CallResult: { callTime: String(call.duration), state: call.result } } };
	},
};
