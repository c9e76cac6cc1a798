import { Container } from '@n8n/di';
import { Cipher, EncryptionKeyProxy, InstanceSettings, type KeyInfo } from 'n8n-core';

/**
 * n8n-core 2.41 encrypts credential data (Credentials.setData) with the key its EncryptionKeyProxy
 * hands out, and n8n's CLI gives that proxy a provider (its encryption-key-manager module). The
 * harness gives it the one key n8n starts with: the instance's own, as n8n's "no-prefix" legacy
 * descriptor (the instance key wrapped with itself, aes-256-cbc), so data is encrypted as before.
 */
export function provideInstanceKey(): void {
	const cipher = Container.get(Cipher);
	const legacy: KeyInfo = {
		id: 'legacy',
		value: cipher.encryptDEKWithInstanceKey(Container.get(InstanceSettings).encryptionKey),
		algorithm: 'aes-256-cbc',
		format: 'no-prefix',
	};
	Container.get(EncryptionKeyProxy).setProvider({
		getActiveKey: async () => legacy,
		getKeyById: async (id) => (id === legacy.id ? legacy : null),
		getLegacyKey: async () => legacy,
	});
}
