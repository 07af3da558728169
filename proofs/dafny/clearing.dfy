// Proof companion of src/kernel/clearing.ts: countTools only grows towards the start, and
// freedBy reads only the mask entries below its bound.

// A range that starts earlier holds at least as many tool results.
lemma CountToolsAntitone(roles: seq<Role>, a: int, c: int, n: int)
  requires 0 <= a <= c <= n <= |roles|
  ensures countTools(roles, a, n) >= countTools(roles, c, n)
  decreases c - a
{
  if a < c { CountToolsAntitone(roles, a + 1, c, n); }
}

// The same for every earlier start at once (what keptCutoff's loop needs when it stops).
lemma CountToolsAntitoneAll(roles: seq<Role>, c: int, n: int)
  requires 0 <= c <= n <= |roles|
  ensures forall a :: 0 <= a <= c ==> countTools(roles, a, n) >= countTools(roles, c, n)
{
  forall a | 0 <= a <= c { CountToolsAntitone(roles, a, c, n); }
}

// freedBy over [0, b) ignores mask entries at b and after.
lemma FreedAgree(tokens: seq<int>, after: seq<int>, m1: seq<bool>, m2: seq<bool>, b: int)
  requires 0 <= b <= |m1| && b <= |m2| && b <= |tokens| && b <= |after|
  requires forall k :: 0 <= k < b ==> m1[k] == m2[k]
  ensures freedBy(tokens, after, m1, b) == freedBy(tokens, after, m2, b)
  decreases b
{
  if b > 0 { FreedAgree(tokens, after, m1, m2, b - 1); }
}

// Appending one mask entry leaves every freedBy up to the old length unchanged (what a loop that pushes needs).
lemma FreedSnoc(tokens: seq<int>, after: seq<int>, m: seq<bool>, x: bool)
  ensures forall b :: 0 <= b <= |m| && b <= |tokens| && b <= |after| ==> freedBy(tokens, after, m + [x], b) == freedBy(tokens, after, m, b)
{
  forall b | 0 <= b <= |m| && b <= |tokens| && b <= |after| { FreedAgree(tokens, after, m + [x], m, b); }
}

// An empty mask frees nothing.
lemma FreedNone(tokens: seq<int>, after: seq<int>, m: seq<bool>, n: int)
  requires 0 <= n <= |m| && n <= |tokens| && n <= |after|
  requires forall k :: 0 <= k < n ==> !m[k]
  ensures forall b :: 0 <= b <= n ==> freedBy(tokens, after, m, b) == 0
{
  forall b | 0 <= b <= n { FreedNoneAt(tokens, after, m, b); }
}

lemma FreedNoneAt(tokens: seq<int>, after: seq<int>, m: seq<bool>, b: int)
  requires 0 <= b <= |m| && b <= |tokens| && b <= |after|
  requires forall k :: 0 <= k < b ==> !m[k]
  ensures freedBy(tokens, after, m, b) == 0
  decreases b
{
  if b > 0 { FreedNoneAt(tokens, after, m, b - 1); }
}
