import { CloopenApi } from '../../credentials/CloopenApi.credentials';

import type { CredentialTypeInput } from './credentialTypeRegistry';

/**
 * The credential types this package ships (package.json → n8n.credentials), always registered so
 * that the real classes sign the requests. Node types are not defaulted: tests pass the node
 * classes they exercise in `nodeTypes`.
 */
export const PACKAGE_CREDENTIAL_TYPES: CredentialTypeInput[] = [CloopenApi];
