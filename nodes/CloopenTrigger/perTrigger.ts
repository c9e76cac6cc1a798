import { BoundedMap } from '../shared/boundedMap';

/**
 * State kept per trigger (a workflow's Cloopen Trigger node), in the memory of this n8n process:
 * each trigger has its own, so a flood on one webhook cannot push out what another keeps. At most
 * MAX_TRIGGERS are kept; beyond that the one that received nothing for the longest is forgotten.
 * Used for Verify With Platform's budget (verifyBudget.ts); the repeat memory (repeats.ts) is
 * bounded by bytes instead, so that no other trigger can make a secured trigger forget.
 */
export const MAX_TRIGGERS = 50;

/** The key of a trigger: its workflow's id and its node's id. */
export const triggerScope = (workflowId: string | undefined, nodeId: string) =>
	`${workflowId ?? ''}/${nodeId}`;

export class PerTrigger<State> {
	/** Touching a trigger sets it again, which makes it the newest (least recently used first). */
	private readonly states = new BoundedMap<string, State>(MAX_TRIGGERS);

	constructor(private readonly create: () => State) {}

	of(scope: string): State {
		const state = this.states.get(scope) ?? this.create();
		this.states.set(scope, state);
		return state;
	}

	/** How many triggers have state now (for tests of the bound). */
	get size(): number {
		return this.states.size;
	}
}
