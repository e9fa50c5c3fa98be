"""Upper bounds on the rounds a deal wins and the constructions of good deals (covering codes).

Upper bounds: every won round needs a line whose M - 1 other rounds are lost and every lost
round lies on N lines, so (M - 1)|W| <= N |L| (for M = 2 the sphere-covering bound,
lenstra_seroussi2002); for M = 2 and N even, the excess bound of van_wee1988; for M >= 3 the
full-line lemma (`fullline`). Constructions: Hamming codes for N = 2**k - 1 and doubling
L x {0, 1} (Cohen, Honkala, Litsyn and Lobstein, *Covering Codes*, 1997, Ch. 3); for M >= 3 the
product W1 x L2 + L1 x W2 of smaller worlds' won sets. `optima` combines them with searches.
"""

from __future__ import annotations

import math

from .. import checks
from ..bitsets import bits, from_bits, full
from .fullline import full_line_upper_bound
from .slack import MAX_SLACK_ROUNDS, slack_upper_bound
from .world import check_world, largest_players
from .sets import check_mask

__all__ = [
    "construction",
    "constructed_lost_set",
    "counting_upper_bound",
    "direction_upper_bound",
    "hamming_coset_check",
    "hamming_lost_set",
    "hamming_syndrome",
    "product_won_set",
    "single_player_won_set",
    "upper_bound",
    "van_wee_lost_bound",
]


# --- upper bounds ------------------------------------------------------------------------------


def counting_upper_bound(n_players: int, n_colors: int = 2) -> int:
    """(M - 1)|W| <= N |L| with |W| + |L| = M**N, so |W| <= N M**N / (N + M - 1)."""
    n, m = check_world(n_players, n_colors)
    return (n * m**n) // (n + m - 1)


def direction_upper_bound(n_players: int, n_colors: int = 2) -> int:
    """Per direction, the lines serving a won round are disjoint and hold M - 1 lost rounds each.

    So at most floor(|L| / (M - 1)) serve per direction and |W| <= N floor(|L| / (M - 1)); the best
    case over |L| = M**N - |W| bounds |W|. It is the counting bound with the rounding done per
    direction (sharper for M >= 3 only).
    """
    n, m = check_world(n_players, n_colors)
    total = m**n
    return max(min(total - lost, n * (lost // (m - 1))) for lost in range(total + 1))


def van_wee_lost_bound(n_players: int) -> int:
    """For M = 2, N even: |L| >= 2**N (N + 2) / ((N + 1)**2 + 1) (van_wee1988).

    Derivation: for a ball N[x], the codewords (lost rounds) counted with multiplicity over the
    balls N[y], y in N[x], sum to (N + 1) a0 + 2 a1 + 2 a2 (a_d = codewords at distance d from x).
    With N + 1 odd, a ball in which every round is covered exactly once (sum N + 1) needs a0 = 1:
    so every x outside L sees excess >= 1 in its ball. Summing, (N + 1) E >= 2**N - |L| where the
    total excess is E = (N + 1)|L| - 2**N.
    """
    n, _ = check_world(n_players, 2)
    if n % 2:
        raise ValueError("van Wee's parity bound needs an even number of players")
    return math.ceil(2**n * (n + 2) / ((n + 1) ** 2 + 1))


def upper_bound(n_players: int, n_colors: int = 2) -> tuple[int, str]:
    """The best combinatorial upper bound on won rounds we have, and its name."""
    n, m = check_world(n_players, n_colors)
    candidates = [(counting_upper_bound(n, m), "counting (sphere) bound"),
                  (direction_upper_bound(n, m), "per-direction counting bound")]
    if m == 2 and n % 2 == 0:
        candidates.append((2**n - van_wee_lost_bound(n), "van Wee bound"))
    candidates.append((full_line_upper_bound(n, m), "full-line lemma bound"))
    if m**n <= MAX_SLACK_ROUNDS:
        candidates.append((slack_upper_bound(n, m), "full-line lemma with slack"))
    best = candidates[0]
    for value, name in candidates[1:]:  # a later bound counts only when strictly sharper
        if value < best[0]:
            best = (value, name)
    return best


# --- constructions -----------------------------------------------------------------------------


def hamming_syndrome(x: int, n_players: int) -> int:
    """XOR of the positions j + 1 of the Blue hats of round x: 0 exactly on the Hamming code."""
    n = checks.integer(n_players, "n_players", low=1, high=63)
    x = checks.integer(x, "x", low=0, high=2**n - 1)
    syndrome = 0
    for j in range(n):
        if x >> j & 1:
            syndrome ^= j + 1
    return syndrome


def _check_hamming_length(n: int) -> None:
    if n < 3 or (n + 1) & n:
        raise ValueError(f"Hamming codes need N = 2**k - 1 >= 3 players, got {n}")


def hamming_lost_set(n_players: int) -> int:
    """For N = 2**k - 1: the Hamming code (Blue positions XOR to 0), a perfect cover."""
    n, _ = check_world(n_players, 2)
    _check_hamming_length(n)
    return from_bits(x for x in range(2**n) if hamming_syndrome(x, n) == 0)


def hamming_coset_check(n_players: int) -> tuple[int, bool]:
    """(lost rounds, covers every round) for the Hamming code of length N = 2**k - 1 <= 63.

    The syndrome is linear over GF(2), so the code is its kernel and has 2**N / (number of
    syndromes) rounds; a round x is within one hat of the code iff its syndrome is 0 or the
    syndrome of a single Blue hat (flip that hat). So the code covers all rounds iff those N + 1
    syndromes are all the syndromes, here the k-bit numbers. Works for N = 31, 63 (2**N rounds)
    without listing rounds.
    """
    n = checks.integer(n_players, "n_players", low=1, high=63)
    _check_hamming_length(n)
    k = (n + 1).bit_length() - 1
    image = {0}
    for j in range(n):  # the span of the single-hat syndromes is the image of the syndrome map
        image |= {s ^ hamming_syndrome(1 << j, n) for s in image}
    coset_leaders = {0} | {hamming_syndrome(1 << j, n) for j in range(n)}
    if len(image) != 2**k:
        raise AssertionError("the syndromes of a Hamming code are the k-bit numbers")
    return 2**n // len(image), coset_leaders == image


def constructed_lost_set(n_players: int) -> int:
    """A covering code from Hamming codes and doubling (L x {0, 1}): the lost set of a good deal."""
    n = checks.integer(n_players, "n_players", low=1, high=largest_players(2))
    if n == 1:
        return 1  # the single round 0 covers the 1-cube
    if not (n + 1) & n:
        return hamming_lost_set(n)
    half = constructed_lost_set(n - 1)  # rounds of N - 1 players; a last hat of either colour
    return from_bits(2 * x + b for x in bits(half) for b in (0, 1))


def single_player_won_set(n_players: int, n_colors: int = 2) -> int:
    """Player 1 always guesses colour 0: wins the M**(N-1) rounds where his hat is colour 0."""
    n, m = check_world(n_players, n_colors)
    return full(m ** (n - 1))


def product_won_set(won1: int, n1: int, won2: int, n2: int, n_colors: int) -> int:
    """W = W1 x L2 + L1 x W2 on N1 + N2 players (first N1 hats from world 1): achievable.

    A round (x, y) with x in W1, y in L2 is served by x's serving line, whose other rounds
    (x', y) have x' in L1 and y in L2, so are lost; symmetrically for x in L1, y in W2. Hence
    |W| = |W1| |L2| + |L1| |W2| (the direct-sum idea for covering codes, Cohen et al. Ch. 3).
    One player (N = 1) who always guesses colour 0 has W = {0}. N1, N2 >= 1 and each mask must
    fit its world's M**N rounds (ValueError otherwise).
    """
    n1 = checks.integer(n1, "n1", low=1)
    n2 = checks.integer(n2, "n2", low=1)
    _, m = check_world(n1 + n2, n_colors)
    for name, won, k in (("won1", won1, n1), ("won2", won2, n2)):
        value = checks.integer(won, name, low=0)
        if value.bit_length() > m**k:
            raise ValueError(f"{name} must be a bitmask of the {m}**{k} = {m**k} rounds of its "
                             f"world, got {won!r}")
    t2 = m**n2
    return from_bits(x * t2 + y for x in range(m**n1) for y in range(t2)
                     if (won1 >> x & 1) != (won2 >> y & 1))


def known_won_sets(known: object, n: int, m: int) -> dict[int, int]:
    """Validated won sets of smaller worlds (same M), keyed by their number of players."""
    if known is None:
        return {}
    if not isinstance(known, dict):
        raise checks.ArgumentTypeError(
            f"known must map player counts to won-set masks, got {known!r}")
    out = {}
    for k, w in known.items():
        k = checks.integer(k, "a key of known", low=1)
        if 2 <= k < n:
            out[k] = check_mask(w, k, m, f"known[{k}]")
    return out


def construction(n_players: int, n_colors: int = 2, known: dict[int, int] | None = None
                 ) -> tuple[int, str]:
    """The best won set our constructions give, and its name.

    `known` maps smaller player counts (same M) to won sets already found: for M >= 3 each split
    N = N1 + N2 is tried with `product_won_set` (N = 1 being one player always guessing).
    """
    n, m = check_world(n_players, n_colors)
    parts = {1: 1} | known_won_sets(known, n, m)
    if m == 2:
        return full(2**n) & ~constructed_lost_set(n), "Hamming code / doubling"
    best, name = single_player_won_set(n, m), "one player always guesses"
    for n1 in sorted(parts):
        if n - n1 in parts:
            w = product_won_set(parts[n1], n1, parts[n - n1], n - n1, m)
            if w.bit_count() > best.bit_count():
                best, name = w, f"product of N = {n1} and N = {n - n1}"
    return best, name
