import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { OTHER_COUNTRIES, PREMIUM_PREFIXES } from '../nodes/shared/platform/accountDestinations';
import {
	API_VERSION,
	ignoresSslIssues,
	PRODUCTION_BASE_URL,
	resolveBaseUrl,
	SANDBOX_BASE_URL,
} from '../nodes/shared/platform/api';
import { CREDENTIAL_FAILURE_CODES, describeStatusCode } from '../nodes/shared/platform/statusCodes';
import { BASE_URL_FIX, baseUrlProblem, withUrlSecretsMasked } from '../nodes/shared/urls';
import { signRequest } from './cloopenSignature';
import { originOf, requestTarget } from './ownServer';

/** What Test connection says for a statusCode: the explanation and what to check. */
function credentialFailure(code: string): string {
	const info = describeStatusCode(code);
	return [info.explanation, info.hint].filter(Boolean).join('. ');
}

/**
 * The Cloopen API credentials. Test connection is n8n's declarative test: n8n's verification
 * scanner refuses the request helper, the only one a credential test function is given.
 */
export class CloopenApi implements ICredentialType {
	name = 'cloopenApi';

	displayName = 'Cloopen API';

	documentationUrl = 'https://github.com/n8n-nodes-cloopen/n8n-nodes-cloopen#credentials';

	/**
	 * n8n's HTTP Request node may sign with these credentials (a Custom API Call for an endpoint the
	 * node has no operation for); the editor offers it as "Cloopen HTTP Request".
	 */
	httpRequestNode = {
		name: 'Cloopen',
		docsUrl: 'https://doc.yuntongxun.com/',
		apiBaseUrlPlaceholder: `${PRODUCTION_BASE_URL}/${API_VERSION}/Accounts/{Account SID}/`,
	};

	icon: Icon = {
		light: 'file:../nodes/Cloopen/cloopen.svg',
		dark: 'file:../nodes/Cloopen/cloopen.dark.svg',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Account SID',
			name: 'accountSid',
			type: 'string',
			default: '',
			required: true,
			description:
				"ACCOUNT SID from the console. A sub-account SID works too, for that sub-account's own calls and SMS.",
		},
		{
			displayName: 'Auth Token',
			name: 'authToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'AUTH TOKEN from the console (or the sub-account token that goes with a sub-account SID)',
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
			description: `Scheme, host and port; the paths /${API_VERSION}/Accounts/... are added to it`,
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			displayOptions: { show: { server: ['custom'] } },
			description:
				"Whether to accept a self-signed certificate, as the local emulator's HTTPS server uses. Never needed for Cloopen's own servers, so only offered for a Custom URL.",
		},
		{
			displayName: OTHER_COUNTRIES.label,
			name: OTHER_COUNTRIES.name,
			type: 'string',
			default: '',
			placeholder: '+852, +1',
			description:
				'Country calling codes, separated by commas, whose numbers every Cloopen node with these credentials may call or text. Empty: mainland China numbers only. Premium-rate and international-network ranges stay refused unless listed below.',
		},
		{
			displayName: PREMIUM_PREFIXES.label,
			name: PREMIUM_PREFIXES.name,
			type: 'string',
			default: '',
			placeholder: '+1900',
			description:
				'Number prefixes, separated by commas, that let calls and SMS reach the premium-rate, international-network and high-risk ranges refused by default (+1 900, +882, +252 …), in a listed country or not. Leave empty unless you mean to pay for such calls.',
		},
		{
			displayName:
				"These credentials sign only requests to the server above: n8n's HTTP Request node (a Custom API Call) with them refuses any other host, so a signature never leaves for a server that could replay it at Cloopen. To limit the HTTP Request node further, set Allowed HTTP Request Domains below to Specific Domains (the server's host name) or None.",
			name: 'ownServerNotice',
			type: 'notice',
			default: '',
		},
		{
			// n8n shows only the network error's code when a declarative test cannot connect.
			displayName:
				"Test connection asks the server above for this account's details. If it fails with only a code, n8n could not reach that server from the machine it runs on: ECONNREFUSED (nothing answers at that host and port), ENOTFOUND or EAI_AGAIN (the host name is not known there), ETIMEDOUT or ECONNRESET (a firewall or proxy in between), a certificate code such as DEPTH_ZERO_SELF_SIGNED_CERT (a self-signed certificate: Ignore SSL Issues, Custom URL only).",
			name: 'connectionNotice',
			type: 'notice',
			default: '',
		},
	];

	/**
	 * Signs each request: `sig` in the query and `Authorization` in the headers, computed from the
	 * same timestamp (docs/platform.md#signing). The token itself is never sent. Certificate checks
	 * are skipped only for a Custom URL server that asks for it. A Base URL every node would refuse
	 * signs nothing either, which is how Test connection (a declarative test) applies the nodes' rule;
	 * nor does a request to any other scheme, host or port than the server's (ownServer.ts).
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const baseUrl = resolveBaseUrl(credentials);
		const problem = baseUrlProblem(baseUrl);
		if (problem !== undefined) {
			throw new Error(
				`Base URL ${problem}, got "${withUrlSecretsMasked(baseUrl)}". Nothing was sent: ${BASE_URL_FIX}.`,
			);
		}
		// Only the credentials' own server gets a signature (a Custom API Call may name any URL).
		const target = requestTarget(
			requestOptions as { url?: unknown; uri?: unknown; baseURL?: unknown },
		);
		const own = new URL(baseUrl);
		if (target === undefined || originOf(target) !== originOf(own)) {
			const where = target
				? withUrlSecretsMasked(originOf(target))
				: 'an address that is not a URL';
			throw new Error(
				`The Cloopen credentials sign only requests to their server ${originOf(own)}; this request goes to ${where}. Nothing was sent: use the server's address, or other credentials for another host.`,
			);
		}
		const { sig, authorization } = signRequest(
			String(credentials.accountSid),
			String(credentials.authToken),
		);
		return {
			...requestOptions,
			qs: { ...(requestOptions.qs ?? {}), sig },
			headers: { ...(requestOptions.headers ?? {}), Authorization: authorization },
			...(ignoresSslIssues(credentials) ? { skipSslCertificateValidation: true } : {}),
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
			url: `=/${API_VERSION}/Accounts/{{$credentials.accountSid}}/AccountInfo`,
			method: 'GET',
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json;charset=utf-8',
				'Content-Length': '0',
			},
		},
		rules: CREDENTIAL_FAILURE_CODES.map((code) => ({
			type: 'responseSuccessBody' as const,
			properties: {
				key: 'statusCode',
				value: code,
				message: `${credentialFailure(code)} (statusCode ${code})`,
			},
		})),
	};
}
