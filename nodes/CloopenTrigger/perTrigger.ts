/**
 * State kept per trigger (a workflow's Cloopen Trigger node), in the memory of this n8n process:
 * each trigger has its own, so a flood on one webhook cannot spend another's. Only state that is at
 * rest (the same as a new one: nothing in flight, its budget full again) is ever forgotten, so
 * traffic to other triggers cannot reset a trigger's budget; what is kept is bounded by the triggers
 * that were busy in the last minute, which the workflows of the instance bound. Used for Verify With
 * Platform's budget (verifyBudget.ts); the repeat memory (repeats.ts) is bounded by bytes.
 */
export const SWEEP_ABOVE = 50;

/** The key of a trigger: its workflow's id and its node's id. */
export const triggerScope = (workflowId: string | undefined, nodeId: string) =>
	`${workflowId ?? ''}/${nodeId}`;

export class PerTrigger<State> {
	private readonly states = new Map<string, State>();

	constructor(
		private readonly create: () => State,
		/** Whether a state is the same as a new one now, and may be forgotten. */
		private readonly atRest: (state: State, now: number) => boolean,
	) {}

	of(scope: string, now: number): State {
		let state = this.states.get(scope);
		if (!state) {
			if (this.states.size >= SWEEP_ABOVE) this.sweep(now);
			state = this.create();
			this.states.set(scope, state);
		}
		return state;
	}

	/** How many triggers have state now (for tests of the bound). */
	get size(): number {
		return this.states.size;
	}

	private sweep(now: number): void {
		for (const [scope, state] of this.states) {
			if (this.atRest(state, now)) this.states.delete(scope);
		}
	}
}
