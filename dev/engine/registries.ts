import { CredentialTypeRegistry, type CredentialTypeInput } from './credentialTypeRegistry';
import { ManualTrigger, MANUAL_TRIGGER_TYPE } from './nodes/manualTrigger';
import { NoOp, NO_OP_TYPE } from './nodes/noOp';
import { RespondToWebhook, RESPOND_TO_WEBHOOK_TYPE } from './nodes/respondToWebhook';
import { StickyNote, STICKY_NOTE_TYPE } from './nodes/stickyNote';
import { TestItems, TEST_ITEMS_TYPE } from './nodes/testItems';
import { Webhook, WEBHOOK_TYPE } from './nodes/webhook';
import { NodeTypeRegistry, type NodeTypeInput } from './nodeTypeRegistry';
import { PACKAGE_CREDENTIAL_TYPES } from './packageTypes';

/**
 * Extra node types: an array (each registered as `n8n-nodes-cloopen.<name>` and `CUSTOM.<name>`,
 * or as-is when its description name already has a prefix) or a map from exact type name to type.
 */
export type NodeTypesOption = NodeTypeInput[] | Record<string, NodeTypeInput>;

/** The harness built-ins (manual trigger, noOp, sticky note, testItems, webhook, respond to webhook) plus what the test passes. */
export function buildNodeTypes(extra: NodeTypesOption = []): NodeTypeRegistry {
	const registry = new NodeTypeRegistry()
		.register(ManualTrigger, [MANUAL_TRIGGER_TYPE])
		.register(NoOp, [NO_OP_TYPE])
		.register(StickyNote, [STICKY_NOTE_TYPE])
		.register(TestItems, [TEST_ITEMS_TYPE])
		.register(Webhook, [WEBHOOK_TYPE])
		.register(RespondToWebhook, [RESPOND_TO_WEBHOOK_TYPE]);
	if (Array.isArray(extra)) {
		for (const type of extra) registry.register(type);
	} else {
		for (const [name, type] of Object.entries(extra)) registry.register(type, [name]);
	}
	return registry;
}

/** The package's credential types plus what the test passes (a generic-auth type, say). */
export function buildCredentialTypes(extra: CredentialTypeInput[] = []): CredentialTypeRegistry {
	const registry = new CredentialTypeRegistry();
	for (const type of [...PACKAGE_CREDENTIAL_TYPES, ...extra]) registry.register(type);
	return registry;
}
