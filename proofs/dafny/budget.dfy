// Proof companion of src/kernel/budget.ts: the product a stretch's budget is taken from stays in range.

// Multiplying by a natural keeps the order (size * percent <= size * 100 when percent <= 100).
lemma BudgetMulMono(a: int, x: int, y: int)
  requires a >= 0 && x <= y
  ensures a * x <= a * y
{
}
