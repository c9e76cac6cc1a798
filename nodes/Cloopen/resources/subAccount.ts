import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';

import { withoutSecretFields } from '../../shared/secrets';
import { withIsoDates } from './platformDate';
import type { OperationContext, ResourceDefinition } from './types';
import { listOf, nestedObject } from './answerShape';
import { appIdOf } from './appId';
import { appIdField, operationProperty, showFor } from './fields';

const RESOURCE = 'subAccount';
/** docs/platform.md#sub-accounts: offset is 1 to 100 rows per query. */
const MAX_PAGE_SIZE = 100;
/** Return All reads at most this many pages (50,000 sub-accounts), whatever the server says. */
export const RETURN_ALL_MAX_PAGES = 500;
/** docs/platform.md#sub-accounts: a sub-account SID is 32 letters and digits. Checked in the editor and again at run time. */
const SUB_ACCOUNT_SID = '^[A-Za-z0-9]{32}$';

const INCLUDE_SECRETS_DESCRIPTION =
	'Whether to output the sub-account token (subToken) and communication password (voipPwd)';

/** Create and Get by Name give the secrets unless told not to. */
const oneOptions: INodeProperties[] = [
	{
		displayName: 'Include Secrets',
		name: 'includeSecrets',
		type: 'boolean',
		default: true,
		description: INCLUDE_SECRETS_DESCRIPTION,
	},
];

/** Get Many leaves them out unless told to. Version 1 stores these as listOptions, later versions as options. */
const listOptions: INodeProperties[] = [
	{
		displayName: 'Include Secrets',
		name: 'includeSecrets',
		type: 'boolean',
		default: false,
		description: INCLUDE_SECRETS_DESCRIPTION,
	},
	{
		displayName: 'Start At',
		name: 'startNo',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Index of the first sub-account to return (0 is the first)',
	},
];

const properties: INodeProperties[] = [
	operationProperty(RESOURCE, 'create', [
		{
			name: 'Close',
			value: 'close',
			action: 'Close a sub-account',
			description: 'Close a sub-account for good: its calls, SMS and logins stop',
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Create a sub-account',
			description: 'Create a sub-account with its own communication account',
		},
		{
			name: 'Get by Name',
			value: 'getByName',
			action: 'Get a sub-account by name',
			description: 'Find a sub-account by its friendly name',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many sub-accounts',
			description: 'List the sub-accounts of an application',
		},
	]),
	appIdField(RESOURCE, ['create', 'getByName', 'getAll']),
	{
		displayName: 'Friendly Name',
		name: 'friendlyName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'customer@example.com',
		displayOptions: showFor(RESOURCE, ['create']),
		description: 'Unique name of letters and digits; an e-mail address is recommended',
	},
	{
		displayName: 'Sub-Account',
		name: 'subAccountName',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: showFor(RESOURCE, ['getByName']),
		description: 'The sub-account to look up, by its friendly name',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a sub-account…',
				typeOptions: { searchListMethod: 'searchSubAccountNames', searchable: true },
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: 'e.g. customer@example.com',
			},
		],
	},
	{
		displayName: 'App ID',
		name: 'appId',
		type: 'string',
		default: '',
		displayOptions: showFor(RESOURCE, ['close']),
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
		displayOptions: showFor(RESOURCE, ['close']),
	},
	{
		displayName: 'Sub-Account',
		name: 'subAccountSid',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions: showFor(RESOURCE, ['close']),
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
				validation: [
					{
						type: 'regex',
						properties: {
							regex: SUB_ACCOUNT_SID,
							errorMessage: 'A sub-account SID is 32 letters and digits',
						},
					},
				],
			},
		],
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: showFor(RESOURCE, ['getAll']),
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		displayOptions: { show: { resource: [RESOURCE], operation: ['getAll'], returnAll: [false] } },
		description: 'Max number of results to return',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor(RESOURCE, ['create', 'getByName'], 'version1'),
		options: oneOptions,
	},
	{
		displayName: 'Options',
		name: 'listOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor(RESOURCE, ['getAll'], 'version1'),
		options: listOptions,
	},
];

/**
 * Reads GetSubAccounts pages from `startNo` until `limit`, the reported totalCount, a short or empty
 * page, or a page that brings no sub-account not seen already (a server that ignores startNo). A
 * server that sends full, new pages forever is stopped at RETURN_ALL_MAX_PAGES with an error, so
 * that a run neither hangs nor silently returns a cut list.
 */
async function readPages(
	context: OperationContext,
	query: { appId: string; startNo: number; limit: number },
) {
	const found: IDataObject[] = [];
	const seen = new Set<string>();
	let startNo = query.startNo;
	for (let pages = 0; found.length < query.limit; pages++) {
		if (pages === RETURN_ALL_MAX_PAGES) {
			throw new NodeOperationError(
				context.executeFunctions.getNode(),
				`Sub-Account → Get Many stopped after ${RETURN_ALL_MAX_PAGES} pages (${found.length} sub-accounts) without reaching the end of the list`,
				{
					itemIndex: context.itemIndex,
					description: `The platform kept returning full pages without a totalCount that ends them. Turn off Return All and read in parts with Limit and Start At (e.g. Start At ${startNo}).`,
				},
			);
		}
		const offset = Math.min(MAX_PAGE_SIZE, query.limit - found.length);
		const response = await context.request({
			operation: 'Sub-Account → Get Many',
			method: 'POST',
			path: 'GetSubAccounts',
			body: { appId: query.appId, startNo: String(startNo), offset: String(offset) },
			xml: { root: 'SubAccount' },
			arrayElements: ['SubAccount'],
		});
		const page = listOf(response, 'SubAccount');
		const fresh = page.filter((entry) => {
			const key = String(entry.subAccountSid ?? JSON.stringify(entry));
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		});
		found.push(...fresh);
		startNo += page.length;
		const total = Number(response.totalCount);
		if (page.length < offset || fresh.length === 0 || (Number.isFinite(total) && startNo >= total))
			break;
	}
	return found;
}

/** subToken and voipPwd, in whatever casing the answer uses, and any other secret-looking key. */
const withoutSecrets = (entry: IDataObject, include: boolean): IDataObject =>
	include ? entry : withoutSecretFields(entry);

/** The value of a resource locator ({ mode, value }), or what an expression gave directly. */
function chosenValue(context: OperationContext, parameter: string): unknown {
	const chosen = context.param<unknown>(parameter);
	return typeof chosen === 'object' && chosen !== null ? (chosen as IDataObject).value : chosen;
}

/** Letters and digits, plus the characters of an e-mail address, which the platform recommends. */
function friendlyName(context: OperationContext, field: string, value: unknown): string {
	const name = context.rules.required(field, value);
	if (!/^[A-Za-z0-9@._+-]{1,64}$/.test(name)) {
		context.rules.fail(
			field,
			name,
			'must be 1 to 64 letters and digits (an e-mail address is allowed)',
		);
	}
	return name;
}

async function oneSubAccount(
	context: OperationContext,
	name: string,
	path: string,
	operation: string,
) {
	const response = await context.request({
		operation,
		method: 'POST',
		path,
		body: { appId: await appIdOf(context), friendlyName: name },
		xml: { root: 'SubAccount' },
	});
	const include = context.param<IDataObject>('options', {}).includeSecrets !== false;
	const subAccount = withIsoDates(withoutSecrets(nestedObject(response, 'SubAccount'), include));
	return [{ json: { friendlyName: name, ...subAccount, statusCode: response.statusCode } }];
}

export const subAccount: ResourceDefinition = {
	name: 'Sub-Account',
	value: RESOURCE,
	description: 'Accounts for your own customers, each with its own communication account',
	properties,
	options: { create: oneOptions, getByName: oneOptions, getAll: listOptions },
	resultIds: ['subAccountSid', 'friendlyName'],
	handlers: {
		async create(context) {
			const name = friendlyName(context, 'friendlyName', context.param('friendlyName'));
			return await oneSubAccount(context, name, 'SubAccounts', 'Sub-Account → Create');
		},
		async getByName(context) {
			const name = friendlyName(context, 'subAccountName', chosenValue(context, 'subAccountName'));
			return await oneSubAccount(
				context,
				name,
				'QuerySubAccountByName',
				'Sub-Account → Get by Name',
			);
		},
		async getAll(context) {
			const { rules } = context;
			const appId = await appIdOf(context);
			const returnAll = context.param<boolean>('returnAll', false);
			const limit = returnAll
				? Infinity
				: Number(
						rules.integerInRange('limit', context.param('limit', 50), 1, Number.MAX_SAFE_INTEGER),
					);
			const options = context.param<IDataObject>(
				context.version >= 2 ? 'options' : 'listOptions',
				{},
			);
			const startNo = Number(
				rules.integerInRange('startNo', options.startNo ?? 0, 0, Number.MAX_SAFE_INTEGER),
			);

			const found = await readPages(context, { appId, startNo, limit });
			const include = options.includeSecrets === true;
			return found
				.slice(0, limit)
				.map((entry) => ({ json: withIsoDates(withoutSecrets(entry, include)) }));
		},
		async close(context) {
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
	},
};
