import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../types';
import { chosenValue } from './subAccountAnswer';

/** docs/platform.md#sub-accounts: a sub-account SID is 32 letters and digits. Checked in the editor and again at run time. */
const SUB_ACCOUNT_SID = '^[A-Za-z0-9]{32}$';

const fields: INodeProperties[] = [
	{
		displayName: 'App ID',
		name: 'appId',
		type: 'string',
		default: '',
		placeholder: 'Default App ID from the credentials',
		description:
			"Only used to list the application's sub-accounts to pick from; closing does not send it",
		hint: "Leave empty to list the sub-accounts of the credentials' Default App ID",
	},
	{
		displayName: 'Closing a sub-account cannot be undone: its calls, SMS and logins stop for good',
		name: 'closeNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Sub-Account',
		name: 'subAccountSid',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The sub-account to close. Closing cannot be undone.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a sub-account…',
				typeOptions: { searchListMethod: 'searchSubAccounts', searchable: true },
			},
			{
				displayName: 'By SID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 2d1a8b7f3c9e4f5a6b7c8d9e0f1a2b3c',
				// No regex validation here: n8n runs it in a sandbox with a time limit before every run, and
				// on a loaded n8n it times out and fails the run; execute() checks the SID itself.
			},
		],
	},
];

export const close: OperationDefinition = {
	value: 'close',
	name: 'Close',
	action: 'Close a sub-account',
	description: 'Close a sub-account for good: its calls, SMS and logins stop',
	fields,
	effect: {
		inDoubt: 'the sub-account may have been closed',
		check: 'Look it up with Sub-Account → Get Many before closing it again.',
		readOnly: false,
	},
	asTool: 'runs',
	resultIds: ['subAccountSid', 'friendlyName'],
	async execute(context) {
		const subAccountSid = context.rules.required(
			'subAccountSid',
			chosenValue(context, 'subAccountSid'),
		);
		// The "By SID" mode checks this in the editor; a list entry or an expression is checked here.
		if (!new RegExp(SUB_ACCOUNT_SID).test(subAccountSid)) {
			context.rules.fail(
				'subAccountSid',
				subAccountSid,
				'must be a sub-account SID of 32 letters and digits',
			);
		}
		const response = await context.request({
			operation: 'Sub-Account → Close',
			method: 'POST',
			path: 'CloseSubAccount',
			body: { subAccountSid },
			xml: { root: 'SubAccount' },
		});
		return [{ json: { subAccountSid, closed: true, statusCode: response.statusCode } }];
	},
};
