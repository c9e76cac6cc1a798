import './env';

import { Credentials, getAdditionalKeys } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	Workflow,
	isExpression,
	type ICredentialDataDecryptedObject,
	type ICredentialsExpressionResolveValues,
	type IExecuteData,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeParameters,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowDataProxyAdditionalKeys,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import type { CredentialTypeRegistry } from './credentialTypeRegistry';
import { NodeTypeRegistry } from './nodeTypeRegistry';

/** Decrypted credential data per credential type name, as a test hands it in. */
export type CredentialsByType = Record<string, ICredentialDataDecryptedObject>;

const MOCK_NODE: INode = {
	id: 'harness-credential-resolver',
	name: '',
	type: 'harness.mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/**
 * ICredentialsHelper with the behaviour of n8n's own (packages/cli/src/credentials-helper.ts) where a
 * node can observe it, minus the database: the "stored" data is what the test gave, per type.
 *
 * - authenticate: the type's `authenticate` function is awaited; the generic object form is applied
 *   to headers/qs/body/auth with keys and values resolved as expressions against `$credentials`.
 * - getDecrypted: a fresh copy every call, with the type's property defaults filled in and
 *   expressions in the data resolved, as n8n does before handing credentials to a node.
 * - preAuthentication: only for types with an `expirable` hidden property and a preAuthentication
 *   function, called when that property is empty or the request got a 401; the result is "saved".
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** Every updateCredentials/updateCredentialsOauthTokenData call, for tests to inspect. */
	readonly updates: Array<{ type: string; data: ICredentialDataDecryptedObject }> = [];

	private readonly stored: Map<string, ICredentialDataDecryptedObject>;

	constructor(
		private readonly credentialTypes: CredentialTypeRegistry,
		credentials: CredentialsByType = {},
	) {
		super();
		this.stored = new Map(
			Object.entries(credentials).map(([type, data]) => [type, structuredClone(data)]),
		);
	}

	/** The id/name a node refers to when the harness attaches credentials of `type` to it. */
	static reference(type: string): INodeCredentialsDetails {
		return { id: `harness-${type}`, name: `${type} (test)` };
	}

	has(type: string): boolean {
		return this.stored.has(type);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (!authenticate) return requestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}

		if (authenticate.type === 'generic') {
			requestOptions.headers ??= {};
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				const bag = ((requestOptions as unknown as Record<string, Record<string, unknown>>)[
					target
				] ??= {});
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					const resolvedKey = this.resolveValue(key, { $credentials: credentials }, workflow, node);
					bag[resolvedKey] = this.resolveValue(
						value,
						{ $credentials: credentials },
						workflow,
						node,
					);
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.credentialTypes.getByName(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable === undefined || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		if (node.credentials) {
			await this.updateCredentials(node.credentials[typeName], typeName, {
				...(this.stored.get(typeName) ?? {}),
				...output,
			} as ICredentialDataDecryptedObject);
		}
		return Object.assign(credentials, output);
	}

	/** n8n 2.41: the credential is usable unless its type restricts itself to listed nodes. */
	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		if (!this.credentialTypes.getByName(credentialType).restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes().includes(nodeType);
	}

	/** n8n 2.41: the type's preAuthentication run without saving anything (dynamic credentials). */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.credentialTypes.getByName(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return ((await type.preAuthentication.call(helpers, credentials)) ?? undefined) as
			ICredentialDataDecryptedObject | undefined;
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		const credentials = new Credentials(
			{ id: nodeCredentials.id, name: nodeCredentials.name },
			type,
		);
		await credentials.setData(this.storedData(nodeCredentials, type));
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const original = this.storedData(nodeCredentials, type);
		if (raw === true) return original;

		let data = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			original as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (original.oauthTokenData !== undefined) data.oauthTokenData = original.oauthTokenData;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null);
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			data = workflow.expression.getParameterValue(
				data as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				data,
			) as ICredentialDataDecryptedObject;
		} else {
			data = this.standaloneWorkflow().expression.getComplexParameterValue(
				MOCK_NODE,
				data as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				data,
			) as ICredentialDataDecryptedObject;
		}
		return data;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored.set(type, structuredClone(data));
		this.updates.push({ type, data: structuredClone(data) });
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		await this.updateCredentials(nodeCredentials, type, {
			...this.storedData(nodeCredentials, type),
			oauthTokenData: data.oauthTokenData,
		});
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.getByName(type);
		if (credentialType.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				return [
					...credentialType.properties,
					{
						displayName: 'oauthTokenData',
						name: 'oauthTokenData',
						type: 'json',
						required: false,
						default: {},
					},
				];
			}
			return credentialType.properties;
		}
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}

	/** A copy, so neither a node nor preAuthentication can change what later calls get. */
	private storedData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): ICredentialDataDecryptedObject {
		const data = this.stored.get(type);
		if (data === undefined) {
			throw new UnexpectedError(
				`Credential with ID "${nodeCredentials.id ?? ''}" does not exist for type "${type}" (the test gave no credentials of that type)`,
			);
		}
		return structuredClone(data);
	}

	private resolveValue(
		value: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		return resolved ? resolved.toString() : '';
	}

	/** n8n resolves credential expressions outside an execution against an empty mock workflow. */
	private standaloneWorkflow(): Workflow {
		return new Workflow({
			nodes: [],
			connections: {},
			active: false,
			nodeTypes: new NodeTypeRegistry(),
		});
	}
}
