import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { signRequest } from './cloopenSignature';

export const PRODUCTION_BASE_URL = 'https://app.cloopen.com:8883';
export const SANDBOX_BASE_URL = 'https://sandboxapp.cloopen.com:8883';
export const SOFT_VERSION = '2013-12-26';

/** statusCodes that mean "these credentials or this account cannot be used" (docs/platform.md#status-codes). */
const CREDENTIAL_FAILURE_CODES: Record<string, string> = {
	'111101': 'The Authorization header was empty',
	'111102': 'The Authorization header was not Base64',
	'111103': 'The Authorization header was malformed',
	'111104': 'The account in the Authorization header was empty',
	'111105': 'The timestamp in the Authorization header was empty',
	'111106': 'The timestamp has expired: check the clock of the n8n server',
	'111107': 'The account in the Authorization header differs from the one in the URL',
	'111108': 'The signature was empty',
	'111109': 'Signature check failed: the Account SID or Auth Token is wrong',
	'111113': 'The timestamp format was wrong',
	'111115': "This server's IP address is not on the account's whitelist",
	'111138': 'The main account is not activated',
	'111139': 'The main account is suspended',
	'111140': 'The main account is closed',
	'111141': 'The Account SID does not exist',
	'111143': 'The Auth Token is invalid',
	'111154': 'The sub-account is not activated',
	'111155': 'The sub-account is suspended',
	'111156': 'The sub-account is closed',
	'111157': 'The sub-account does not exist',
	'111159': 'The sub-account token is invalid',
};

/** The server the credentials point at, without a trailing slash. */
export function resolveBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	const server = (credentials.server as string) ?? 'production';
	const url =
		server === 'sandbox'
			? SANDBOX_BASE_URL
			: server === 'custom'
				? String(credentials.baseUrl ?? '')
				: PRODUCTION_BASE_URL;
	return url.replace(/\/+$/, '');
}

export class CloopenApi implements ICredentialType {
	name = 'cloopenApi';

	displayName = 'Cloopen API';

	documentationUrl = 'https://doc.yuntongxun.com/';

	icon: Icon = { light: 'file:../nodes/Cloopen/cloopen.svg', dark: 'file:../nodes/Cloopen/cloopen.dark.svg' };

	properties: INodeProperties[] = [
		{
			displayName: 'Account SID',
			name: 'accountSid',
			type: 'string',
			default: '',
			required: true,
			description:
				'ACCOUNT SID from the console. A sub-account SID works too, for that sub-account\'s own calls and SMS.',
		},
		{
			displayName: 'Auth Token',
			name: 'authToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'AUTH TOKEN from the console (or the sub-account token that goes with a sub-account SID)',
		},
		{
			displayName: 'Default App ID',
			name: 'appId',
			type: 'string',
			default: '',
			placeholder: '8a216da8…',
			description:
				'APP ID of the application that calls and SMS go out from (console → Application Management). Every Cloopen node with these credentials uses it unless the node sets its own App ID.',
		},
		{
			displayName: 'Server',
			name: 'server',
			type: 'options',
			default: 'production',
			options: [
				{ name: 'Production', value: 'production', description: PRODUCTION_BASE_URL },
				{
					name: 'Sandbox',
					value: 'sandbox',
					description: `${SANDBOX_BASE_URL} (only pre-registered test numbers)`,
				},
				{ name: 'Custom URL', value: 'custom', description: 'A proxy or the local emulator' },
			],
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'http://127.0.0.1:8883',
			required: true,
			displayOptions: { show: { server: ['custom'] } },
			description: 'Scheme, host and port; the paths /2013-12-26/Accounts/... are added to it',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to accept a self-signed certificate, as the local emulator\'s HTTPS server uses. Never needed for the real platform.',
		},
	];

	/**
	 * Signs each request: `sig` in the query and `Authorization` in the headers, computed from the
	 * same timestamp (docs/platform.md#signing). The token itself is never sent.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { sig, authorization } = signRequest(
			String(credentials.accountSid),
			String(credentials.authToken),
		);
		return {
			...requestOptions,
			qs: { ...(requestOptions.qs ?? {}), sig },
			headers: { ...(requestOptions.headers ?? {}), Authorization: authorization },
			...(credentials.ignoreSslIssues ? { skipSslCertificateValidation: true } : {}),
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{$credentials.server === "sandbox" ? "' +
				SANDBOX_BASE_URL +
				'" : $credentials.server === "custom" ? $credentials.baseUrl.replace(/\\/+$/, "") : "' +
				PRODUCTION_BASE_URL +
				'"}}',
			url: `=/${SOFT_VERSION}/Accounts/{{$credentials.accountSid}}/AccountInfo`,
			method: 'GET',
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json;charset=utf-8',
				'Content-Length': '0',
			},
		},
		rules: Object.entries(CREDENTIAL_FAILURE_CODES).map(([code, message]) => ({
			type: 'responseSuccessBody' as const,
			properties: { key: 'statusCode', value: code, message: `${message} (statusCode ${code})` },
		})),
	};
}
