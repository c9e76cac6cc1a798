import { UnexpectedError, type ICredentialType, type ICredentialTypes } from 'n8n-workflow';

export type CredentialTypeInput = ICredentialType | (new () => ICredentialType);

/** ICredentialTypes over the credential classes a test hands in (the real CloopenApi, say). */
export class CredentialTypeRegistry implements ICredentialTypes {
	private readonly types = new Map<string, ICredentialType>();

	register(input: CredentialTypeInput): this {
		const type = typeof input === 'function' ? new input() : input;
		this.types.set(type.name, type);
		return this;
	}

	recognizes(credentialType: string): boolean {
		return this.types.has(credentialType);
	}

	getByName(credentialType: string): ICredentialType {
		const type = this.types.get(credentialType);
		if (!type) {
			throw new UnexpectedError(`Unknown credential type "${credentialType}" in the test harness`, {
				extra: { known: [...this.types.keys()] },
			});
		}
		return type;
	}

	getSupportedNodes(): string[] {
		return [];
	}

	/** Same walk as n8n's CredentialTypes: every ancestor named in `extends`, transitively. */
	getParentTypes(typeName: string): string[] {
		const own = this.types.get(typeName)?.extends ?? [];
		return own.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}
}
