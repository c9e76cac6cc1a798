/** A request refused by a rule or by the store: nothing was written and nothing sent. */
export interface Refusal {
	rule: string;
	reason: string;
	/** When asking again may pass; null when it cannot help (an operator must act first). */
	retryAfterSeconds: number | null;
}
