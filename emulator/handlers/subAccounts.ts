import { fail } from '../errors';
import { Fields } from '../fields';
import type { Route } from '../route';
import type { EmulatorSubAccountRecord } from '../state';
import { requireApp } from './common';

/**
 * Letters and digits; the platform recommends an e-mail address, so its characters are accepted too.
 * Up to 64 like the main account's name (the sub-account's is not documented, docs/platform.md#where-the-documentation-is-silent).
 */
const FRIENDLY_NAME = /^[A-Za-z0-9@._+-]{1,64}$/;
/** The default offset is not documented (docs/platform.md#sub-accounts): the emulator uses the maximum, 100. */
const DEFAULT_OFFSET = 100;

const credentialsOf = (record: EmulatorSubAccountRecord) => ({
	subAccountSid: record.subAccountSid,
	subToken: record.subToken,
	dateCreated: record.dateCreated,
	voipAccount: record.voipAccount,
	voipPwd: record.voipPwd,
});

function readName(fields: Fields): string {
	const name = fields.required('friendlyName');
	if (!FRIENDLY_NAME.test(name)) fail('badParameter', 'friendlyName must be letters and digits');
	return name;
}

const NAMED = ['appId', 'friendlyName'];

export const createSubAccount: Route = {
	method: 'POST',
	path: 'SubAccounts',
	root: 'SubAccount',
	mainAccountOnly: true,
	handle(context) {
		const { state } = context;
		const fields = new Fields(context.body, NAMED);
		const appId = requireApp(context, fields);
		const name = readName(fields);
		if (state.subAccounts.some((entry) => entry.friendlyName === name))
			fail('subAccountNameTaken', name);
		return { body: { SubAccount: credentialsOf(state.createSubAccount(appId, name)) } };
	},
};

export const querySubAccountByName: Route = {
	method: 'POST',
	path: 'QuerySubAccountByName',
	root: 'SubAccount',
	mainAccountOnly: true,
	handle(context) {
		const { state } = context;
		const fields = new Fields(context.body, NAMED);
		const appId = requireApp(context, fields);
		const name = readName(fields);
		const found =
			state.subAccounts.find((entry) => entry.friendlyName === name && entry.appId === appId) ??
			fail('subAccountUnknown', name);
		if (found.closed) fail('subAccountClosed', name);
		return { body: { SubAccount: credentialsOf(found) } };
	},
};

export const getSubAccounts: Route = {
	method: 'POST',
	path: 'GetSubAccounts',
	root: 'SubAccount',
	mainAccountOnly: true,
	handle(context) {
		const { state } = context;
		const fields = new Fields(context.body, ['appId', 'startNo', 'offset']);
		const appId = requireApp(context, fields);
		const startNo = fields.integer('startNo', 0, Number.MAX_SAFE_INTEGER, 'startNoInvalid') ?? 0;
		const offset = fields.integer('offset', 1, 100, 'offsetInvalid') ?? DEFAULT_OFFSET;
		// Closed sub-accounts are gone from the list (docs/platform.md#sub-accounts: they cannot be used any more).
		const all = state.subAccounts.filter((entry) => entry.appId === appId && !entry.closed);
		// In the order of docs/platform.md#sub-accounts.
		const page = all
			.slice(startNo, startNo + offset)
			.map(({ subAccountSid, subToken, friendlyName, dateCreated, voipAccount, voipPwd }) => ({
				subAccountSid,
				subToken,
				friendlyName,
				dateCreated,
				voipAccount,
				voipPwd,
			}));
		return { body: { totalCount: String(all.length), SubAccount: page } };
	},
};

export const closeSubAccount: Route = {
	method: 'POST',
	path: 'CloseSubAccount',
	root: 'SubAccount',
	mainAccountOnly: true,
	handle({ state, body }) {
		const fields = new Fields(body, ['subAccountSid']);
		const sid = fields.required('subAccountSid');
		const found =
			state.subAccounts.find((entry) => entry.subAccountSid === sid) ??
			fail('subAccountUnknown', sid);
		if (found.closed) fail('subAccountClosed', sid);
		found.closed = true;
		return { body: {} };
	},
};
