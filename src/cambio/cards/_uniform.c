/* cambio.cards._uniform: whole rounds of uniform random play, in C.
 *
 * The same rounds as the numba loop `uniform_rounds` in batch_kernels.py, its functions
 * mirrored by name: the same record layout (a game is one contiguous int64 row), the rules
 * read from the flattened rule set `rf` that `cambio.cards.batch.flatten_rules` builds
 * (this file holds no copy of any rule's value), the same chance (CPython's Random: MT19937
 * seeded by init_by_array, Fisher-Yates on random(); the counter-based splitmix64 draws)
 * and the same policy stream. tests/cards/test_batch_c.py compares the two kernels round
 * by round: every field of the final record, every result, every action count.
 *
 * Why C: the numba loop spends about 23 ns an action, most of it in code layout that numba
 * and LLVM decide (docs/reports/performance.md, sixth round); here the hot loop is laid out
 * by hand: the rules' flags and the record's offsets are read once per call into a struct,
 * and the uniform policy picks its action from counts where the numba loop builds a list
 * (about 14 ns an action; seventh round).
 *
 * Only what the numba kernels play and this file implements is accepted: the Python side
 * (cambio.cards.batch_c) checks the rule fields and that the constants below equal
 * batch_kernels.py's, and falls back to numba otherwise. Compiled with portable flags; the
 * deals' generators, seeded 128 at a time, get per-CPU clones (target_clones) where the
 * compiler supports them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t i64;
typedef uint64_t u64;
typedef uint32_t u32;

/* ------------------------------------------------------------------ the record's layout
 * Must equal batch_kernels.py's (checked from Python through `constants()`). */
enum {
    TURN, TURN_NUMBER, TURN_FINAL, HELD, HELD_FROM_PILE, POWER, LOOK_A, LOOK_B, CALLER,
    FINAL_LEFT, WINDOW, GIVE_ADDR, GIVE_SEAT, POLL_I, POLL_LEN, PHASE, END_REASON, RESHUFFLES,
    CHANCE, SEED, DLEN, PLEN, DEALER, ACTIONS, SNAP_SEAT, SNAP_ADDR, SNAP_CARD, SNAP_RIGHT,
    N_SC
};
enum { POLL = N_SC };
enum {
    R_VALUES = 0, R_POWERS = 56,
    R_PLAYERS = 112, R_DRAW_FROM_DISCARD, R_FIRE_REPLACED, R_OPTIONAL, R_SNAPPER_ONLY,
    R_ONE_SNAP, R_PENALTY, R_MAX_GRID, R_LOCK_CALLER, R_CALLER_MAY_SNAP, R_AUTO_CALL,
    R_EARLIEST, R_MAX_TURNS, R_OPENING_PEEK, R_MOST_CARDS_TIE, R_SLOTS, R_GLEN, R_DECK,
    R_PILE, R_GRID, R_KNOWN, R_WIDTH,
    N_RF /* the entries read here: rf may go on with flags of rules this kernel refuses */
};
enum { EMPTY = -1, WINDOW_CLOSED = -2, WINDOW_ANYONE = -1 };
enum { P_NONE, P_PEEK_OWN, P_PEEK_OTHER, P_SWAP_OWN_OTHER, P_SWAP_ANY, P_LOOK_MAY, P_LOOK_ANY,
       N_POWERS };
enum { PH_TURN_START, PH_DRAWN, PH_POWER, PH_KING_DECIDE, PH_GIVE, PH_POLL, PH_ROUND_OVER };
enum { END_CAMBIO = 1, END_DECK = 2, END_TURN_CAP = 3 };
enum { RES_WINNERS, RES_TURNS, RES_ACTIONS, RES_END, RES_CALLER, N_RES };
enum { SWAP_DECK = 114 };
/* Deals seeded side by side: 8 vectors of 16 words. With 4 vectors each seeding step
 * waited for the step before (a 32-bit vector multiply takes 10 cycles); with 8 chains in
 * flight the vector units stay busy. A kernel-internal choice: a round's deal depends on
 * its seed alone. */
enum { LANES = 128, VEC = 16, VECS = LANES / VEC };

enum { MAX_SEATS = 64 };

/* The rules and the record's offsets, read from rf once per call. 32-bit fields: a store
 * into the record (64-bit) can then not change them, so the compiler keeps them in
 * registers across the record's writes. */
typedef struct {
    const i64 *value;  /* rf[0:56], a card code's points */
    const i64 *power;  /* rf[56:112], a card code's power */
    int32_t n, draw_from_discard, fire_replaced, optional, snapper_only, one_snap, penalty,
        max_grid, lock_caller, caller_may_snap, auto_call, earliest, max_turns, opening_peek,
        most_cards_tie, slots, glen, deck, pile, grid, known, width;
} Rules;

/* One call's game: the record being played and what this kernel keeps beside it. Each
 * hand's occupied slots, as a count and an ascending list, are kept up to date where a
 * card enters or leaves a hand (deal, snap, give, penalty), so the rules that ask "how many
 * cards may be snapped", "is this hand empty" and the policy's "the j-th occupied slot" read
 * them instead of scanning the grids. They are not part of the record. */
typedef struct {
    i64 *g;
    Rules r;
    int32_t cnt[MAX_SEATS];
    int16_t *held;     /* held[seat * slots + j]: the j-th occupied slot of seat's hand */
    u32 mt[625];       /* the reshuffles' generator */
} Game;

/* ------------------------------------------------------------------ chance */
static inline u64 mix64(u64 x)
{
    u64 z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline u64 draw_chance(i64 *g)
{
    g[CHANCE] += 1;
    return mix64((u64)g[SEED] * 0x100000001B3ULL + (u64)g[CHANCE]);
}

static u32 MT_BASE[624]; /* init_genrand(19650218): where init_by_array starts */

static void mt_base_init(void)
{
    MT_BASE[0] = 19650218U;
    for (u32 j = 1; j < 624; j++)
        MT_BASE[j] = 1812433253U * (MT_BASE[j - 1] ^ (MT_BASE[j - 1] >> 30)) + j;
}

static inline u32 seed_step(u32 word, u32 prev, u32 mul)
{
    return word ^ ((prev ^ (prev >> 30)) * mul); /* init_by_array's mixing, mod 2**32 */
}

/* CPython's Random(seed) for a seed below 2**64: init_by_array on its 32-bit words.
 * mt[624] is the index (624: twist before the next draw). The passes are written out with
 * their wrap-arounds as separate steps: a reshuffle seeds one generator, a chain of 1,247
 * dependent steps, and branches in the loop would lengthen every step. */
static void mt_seed(u32 *mt, u64 seed)
{
    const u32 m1 = 1664525U, m2 = 1566083941U;
    u32 lo = (u32)seed, hi = (u32)(seed >> 32);
    /* the key word and index added at even and odd steps (the index is 0 for a 1-word key) */
    u32 even = lo, odd = hi ? hi + 1U : lo;
    u32 prev = MT_BASE[0];
    for (int a = 1; a < 623; a += 2) {
        prev = seed_step(MT_BASE[a], prev, m1) + even;
        mt[a] = prev;
        prev = seed_step(MT_BASE[a + 1], prev, m1) + odd;
        mt[a + 1] = prev;
    }
    prev = seed_step(MT_BASE[623], prev, m1) + even;
    mt[623] = prev;
    /* the 624th step wraps to word 1 */
    prev = seed_step(mt[1], prev, m1) + odd;
    mt[1] = prev;
    for (int a = 2; a < 624; a++) {
        prev = seed_step(mt[a], prev, m2) - (u32)a;
        mt[a] = prev;
    }
    mt[1] = seed_step(mt[1], prev, m2) - 1U;
    mt[0] = 0x80000000U;
    mt[624] = 624;
}

static inline u32 twist(u32 first, u32 second, u32 far)
{
    u32 y = (first & 0x80000000U) | (second & 0x7FFFFFFFU);
    return far ^ (y >> 1) ^ ((y & 1U) * 0x9908B0DFU);
}

static inline u32 temper(u32 y)
{
    y ^= y >> 11;
    y ^= (y << 7) & 0x9D2C5680U;
    y ^= (y << 15) & 0xEFC60000U;
    return y ^ (y >> 18);
}

/* The next output, twisting word by word as the words are used (batch_kernels.mt_next). */
static inline u32 mt_next(u32 *mt)
{
    u32 k = mt[624];
    if (k >= 624)
        k = 0;
    u32 y = twist(mt[k], mt[k < 623 ? k + 1 : 0], mt[k < 227 ? k + 397 : k - 227]);
    mt[k] = y;
    mt[624] = k + 1;
    return temper(y);
}

/* Random.random(): 53 bits from two outputs. The products are exact in a double except the
 * last, rounded as CPython rounds it (no fused multiply-add: -ffp-contract=off). */
static inline double unit53(u32 a, u32 b)
{
    return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * (1.0 / 9007199254740992.0);
}

static inline double mt_random(u32 *mt)
{
    u32 a = mt_next(mt);
    u32 b = mt_next(mt);
    return unit53(a, b);
}

/* ------------------------------------------------------------------ the deals, by blocks
 * A generator's seeding is a chain of about 1,250 dependent multiply-adds; the LANES deals
 * of a block are seeded side by side (lane-minor rows of LANES words) in vector registers
 * (GCC's vector extensions, lowered to what each clone's CPU has). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONES
#endif

typedef u32 vu32 __attribute__((vector_size(VEC * sizeof(u32))));

/* Macros rather than functions: a function taking or returning a 64-byte vector has a
 * different ABI in each clone (and the compiler warns of it). */
#define VLOAD(v, p) memcpy(&(v), (p), sizeof(vu32))
#define VSTORE(p, v) memcpy((p), &(v), sizeof(vu32))
#define VSTEP(word, prev, mul) ((word) ^ (((prev) ^ ((prev) >> 30)) * (mul)))

/* mt_seed for every lane: mts[a * LANES + g] is word a of lane g's generator, kw[g] and
 * kw[LANES + g] its key words for even and odd steps of init_by_array (hi + 1 on odd steps
 * of a two-word key). Each lane's chain stays in a register from step to step (stored for
 * the second pass and the draws, never read back within a pass). */
CLONES static void seed_lanes(u32 *restrict mts, const u32 *restrict kw)
{
    const u32 m1 = 1664525U, m2 = 1566083941U;
    vu32 x[VECS], w;
    for (int v = 0; v < VECS; v++)
        x[v] = (vu32){0} + MT_BASE[0];
    for (int a = 1; a < 624; a++) {
        const u32 *key = kw + ((a - 1) & 1) * LANES;
        for (int v = 0; v < VECS; v++) {
            VLOAD(w, key + v * VEC);
            x[v] = VSTEP((vu32){0} + MT_BASE[a], x[v], m1) + w;
            VSTORE(mts + a * LANES + v * VEC, x[v]);
        }
    }
    /* the first pass's last step wraps to word 1 (mt[0] holds word 623) */
    for (int v = 0; v < VECS; v++) {
        vu32 key;
        VLOAD(w, mts + LANES + v * VEC);
        VLOAD(key, kw + LANES + v * VEC);
        x[v] = VSTEP(w, x[v], m1) + key;
        VSTORE(mts + LANES + v * VEC, x[v]);
    }
    for (int a = 2; a < 624; a++) {
        for (int v = 0; v < VECS; v++) {
            VLOAD(w, mts + a * LANES + v * VEC);
            x[v] = VSTEP(w, x[v], m2) - (u32)a;
            VSTORE(mts + a * LANES + v * VEC, x[v]);
        }
    }
    const vu32 top = (vu32){0} + 0x80000000U, index = (vu32){0} + 624U;
    for (int v = 0; v < VECS; v++) {
        VLOAD(w, mts + LANES + v * VEC);
        w = VSTEP(w, x[v], m2) - 1U;
        VSTORE(mts + LANES + v * VEC, w);
        VSTORE(mts + v * VEC, top);
        VSTORE(mts + 624 * LANES + v * VEC, index);
    }
}

/* swaps[t * LANES + g]: the index Fisher-Yates swaps position d - 1 - t with in lane g's deal.
 * A deck of up to SWAP_DECK cards needs only words below 227 of the first twist, so every
 * lane is drawn side by side; a larger deck's lanes are drawn one by one. */
CLONES static void deal_swaps(const u32 *restrict mts, int d, int count,
                              int32_t *restrict swaps, u32 *restrict mt)
{
    if (d <= SWAP_DECK) {
        for (int t = 0; t < d - 1; t++) {
            const u32 *w0 = mts + 2 * t * LANES, *w1 = w0 + LANES, *w2 = w1 + LANES;
            const u32 *f0 = mts + (2 * t + 397) * LANES, *f1 = f0 + LANES;
            for (int g = 0; g < LANES; g++) {
                u32 a = temper(twist(w0[g], w1[g], f0[g]));
                u32 b = temper(twist(w1[g], w2[g], f1[g]));
                swaps[t * LANES + g] = (int32_t)(unit53(a, b) * (double)(d - t));
            }
        }
        return;
    }
    for (int g = 0; g < count; g++) {
        for (int j = 0; j < 625; j++)
            mt[j] = mts[j * LANES + g];
        for (int t = 0; t < d - 1; t++)
            swaps[t * LANES + g] = (int32_t)(mt_random(mt) * (double)(d - t));
    }
}

static inline u64 deal_key(u64 seed)
{
    return mix64(seed * 0x100000001B3ULL + 1U);
}

/* ------------------------------------------------------------------ the record */
/* The index of grid cell (seat, slot) in a record, and of its knowledge mask. */
static inline i64 cell(const Rules *r, i64 seat, i64 slot)
{
    return r->grid + seat * r->slots + slot;
}

static inline i64 kcell(const Rules *r, i64 seat, i64 slot)
{
    return r->known + seat * r->slots + slot;
}

/* Every seat's bit and the "everyone" bit: a card shown to all (wraps like numba's int64 at
 * 62 players). */
static inline i64 all_seen(i64 n) { return (i64)(((u64)1 << (n + 1)) - 1U); }

static inline int locked(Game *x, i64 seat)
{
    const i64 *g = x->g;
    const Rules *r = &x->r;
    return seat == g[CALLER] && r->lock_caller;
}

/* The occupied slots of seat's hand (none if locked), counted up to limit. */
static inline i64 seat_open(Game *x, i64 seat, i64 limit)
{
    if (locked(x, seat))
        return 0;
    return x->cnt[seat] < limit ? x->cnt[seat] : limit;
}

static inline i64 open_slots(Game *x, i64 skip, i64 limit)
{
    const Rules *r = &x->r;
    i64 k = 0;
    for (i64 seat = 0; seat < r->n; seat++) {
        if (seat != skip) {
            k += seat_open(x, seat, limit - k);
            if (k >= limit)
                break;
        }
    }
    return k;
}

/* A card enters slot s of seat's hand: s joins the hand's list in order (at its end but
 * where a capped hand fills a hole). */
static inline void hand_gains(Game *x, i64 seat, i64 s)
{
    int16_t *list = x->held + seat * x->r.slots;
    i64 j = x->cnt[seat]++;
    for (; j > 0 && list[j - 1] > s; j--)
        list[j] = list[j - 1];
    list[j] = (int16_t)s;
}

/* A card leaves slot s of seat's hand (a right snap, a give). */
static inline void hand_loses(Game *x, i64 seat, i64 s)
{
    int16_t *list = x->held + seat * x->r.slots;
    i64 last = --x->cnt[seat];
    i64 j = 0;
    while (list[j] != s)
        j++;
    for (; j < last; j++) /* a few slots: a loop, not a call to memmove */
        list[j] = list[j + 1];
}

/* The j-th occupied slot of seat's hand. */
static inline i64 nth_slot(Game *x, i64 seat, i64 j)
{
    return x->held[seat * x->r.slots + j];
}

static inline int grid_occupied(Game *x, i64 seat)
{
    return x->cnt[seat] > 0;
}

/* ------------------------------------------------------------------ flow */
static void end_round(Game *x, i64 reason)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    g[PHASE] = PH_ROUND_OVER;
    g[END_REASON] = reason;
    i64 everyone = all_seen(r->n);
    for (i64 s = 0; s < r->n; s++) {
        i64 at = kcell(r, s, 0);
        i64 len = g[r->glen + s];
        for (i64 j = 0; j < len; j++)
            g[at + j] = everyone;
    }
    g[POLL_LEN] = 0; /* State._end empties the poll but leaves poll_i as it was */
}

static inline void next_turn(Game *x)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    if (g[TURN_NUMBER] >= r->max_turns) {
        end_round(x, END_TURN_CAP);
        return;
    }
    i64 n = r->n;
    i64 t = g[TURN] + 1;
    if (t == n)
        t = 0;
    if (t == g[CALLER])
        t = t + 1 < n ? t + 1 : 0;
    g[TURN] = t;
    g[TURN_NUMBER] += 1;
    g[TURN_FINAL] = g[CALLER] >= 0;
    g[PHASE] = PH_TURN_START;
    if (g[DLEN] == 0 && g[PLEN] <= 1)
        end_round(x, END_DECK);
}

/* Fisher-Yates on g[at:at + count] from mt, already seeded (state._shuffle). */
static void shuffle_seeded(i64 *g, i64 at, i64 count, u32 *mt)
{
    for (i64 k = count - 1; k > 0; k--) {
        i64 j = at + (i64)(mt_random(mt) * (double)(k + 1));
        i64 t = g[at + k];
        g[at + k] = g[j];
        g[j] = t;
    }
}

/* The deck's top card, reshuffling the pile (all but its top) if the deck is empty. */
static inline i64 draw_card(Game *x)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 deck = r->deck;
    if (g[DLEN] == 0) {
        i64 plen = g[PLEN];
        if (plen <= 1)
            return EMPTY;
        i64 pile = r->pile;
        i64 top = g[pile + plen - 1];
        for (i64 j = 0; j < plen - 1; j++)
            g[deck + j] = g[pile + j];
        mt_seed(x->mt, draw_chance(g));
        shuffle_seeded(g, deck, plen - 1, x->mt);
        g[DLEN] = plen - 1;
        g[pile] = top;
        g[PLEN] = 1;
        g[RESHUFFLES] += 1;
    }
    g[DLEN] -= 1;
    return g[deck + g[DLEN]];
}

/* x % n for the poll's first seat; a mask for 2, 4 or 8 players. */
static inline i64 below(u64 x, i64 n)
{
    if ((n & (n - 1)) == 0)
        return (i64)(x & (u64)(n - 1));
    return (i64)(x % (u64)n);
}

static void open_poll(Game *x)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 w = g[WINDOW];
    if (w == WINDOW_CLOSED || g[PLEN] == 0 || open_slots(x, -1, 1) == 0) {
        next_turn(x);
        return;
    }
    int no_caller = !r->caller_may_snap;
    i64 caller = g[CALLER];
    i64 k = 0;
    if (w >= 0) {
        if (!(no_caller && w == caller)) {
            g[POLL] = w;
            k = 1;
        }
    } else {
        i64 n = r->n;
        i64 start = below(draw_chance(g), n);
        for (i64 j = 0; j < n; j++) {
            i64 s = start + j;
            if (s >= n)
                s -= n;
            if (no_caller && s == caller)
                continue;
            g[POLL + k++] = s;
        }
    }
    if (k == 0) {
        next_turn(x);
        return;
    }
    g[POLL_LEN] = k;
    g[POLL_I] = 0;
    g[PHASE] = PH_POLL;
}

static inline void poll_next(Game *x)
{
    i64 *g = x->g;
    g[POLL_I] += 1;
    if (g[POLL_I] >= g[POLL_LEN]) {
        g[POLL_LEN] = 0;
        g[POLL_I] = 0;
        next_turn(x);
    }
}

static inline void after_discard(Game *x)
{
    i64 *g = x->g;
    g[POWER] = P_NONE;
    g[LOOK_A] = -1;
    g[LOOK_B] = -1;
    if (g[TURN_FINAL]) {
        g[FINAL_LEFT] -= 1;
        if (g[FINAL_LEFT] <= 0) {
            end_round(x, END_CAMBIO);
            return;
        }
    }
    open_poll(x);
}

static inline int power_has_target(Game *x, i64 p, i64 seat)
{
    i64 own = seat_open(x, seat, 2);
    i64 others = open_slots(x, seat, 2);
    if (p == P_PEEK_OWN)
        return own > 0;
    if (p == P_PEEK_OTHER)
        return others > 0;
    if (p == P_SWAP_OWN_OTHER || p == P_LOOK_MAY)
        return own > 0 && others > 0;
    return own + others >= 2;
}

static inline void discard(Game *x, i64 card, i64 seat, int may_fire)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    g[r->pile + g[PLEN]] = card;
    g[PLEN] += 1;
    g[WINDOW] = WINDOW_ANYONE;
    i64 p = may_fire ? r->power[card] : P_NONE;
    if (p != P_NONE && power_has_target(x, p, seat)) {
        g[POWER] = p;
        g[PHASE] = PH_POWER;
    } else {
        after_discard(x);
    }
}

static void snap_succeeded(Game *x, i64 snapper, i64 owner)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    if (r->auto_call && g[CALLER] < 0) {
        i64 seats[2] = {snapper, owner};
        for (int j = 0; j < 2; j++) {
            if (!grid_occupied(x, seats[j])) {
                g[CALLER] = seats[j];
                g[FINAL_LEFT] = r->n - 1;
                break;
            }
        }
    }
    open_poll(x);
}

static inline int has_room(Game *x, i64 seat)
{
    const i64 *g = x->g;
    const Rules *r = &x->r;
    i64 cap = r->max_grid;
    i64 len = g[r->glen + seat];
    return cap < 0 || len < cap || x->cnt[seat] < len; /* below len: a hole in the hand */
}

static inline void add_to_grid(Game *x, i64 seat, i64 card)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 cap = r->max_grid;
    i64 len = g[r->glen + seat];
    i64 at = cell(r, seat, 0), kat = kcell(r, seat, 0);
    i64 s = len;
    if (0 <= cap && cap <= len) {
        for (i64 j = 0; j < len; j++) {
            if (g[at + j] == EMPTY) {
                s = j;
                break;
            }
        }
    }
    g[at + s] = card;
    g[kat + s] = 0;
    if (s == len)
        g[r->glen + seat] = len + 1;
    hand_gains(x, seat, s);
}

static void snap(Game *x, i64 seat, i64 a)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 p = a >> 8;
    i64 c = cell(r, p, a & 255), kc = kcell(r, p, a & 255);
    i64 card = g[c];
    g[SNAP_SEAT] = seat;
    g[SNAP_ADDR] = a;
    g[SNAP_CARD] = card;
    i64 pile = r->pile;
    if (card >> 2 == g[pile + g[PLEN] - 1] >> 2) {
        g[SNAP_RIGHT] = 1;
        g[pile + g[PLEN]] = card;
        g[PLEN] += 1;
        g[c] = EMPTY;
        g[kc] = 0;
        hand_loses(x, p, a & 255);
        if (r->one_snap)
            g[WINDOW] = WINDOW_CLOSED;
        else if (r->snapper_only)
            g[WINDOW] = seat;
        if (p != seat && grid_occupied(x, seat)) {
            g[GIVE_ADDR] = a;
            g[GIVE_SEAT] = seat;
            g[PHASE] = PH_GIVE;
            return;
        }
        snap_succeeded(x, seat, p);
        return;
    }
    g[SNAP_RIGHT] = 0;
    g[kc] = all_seen(r->n);
    for (i64 j = 0; j < r->penalty; j++) {
        if (!has_room(x, seat))
            break;
        i64 penalty = draw_card(x);
        if (penalty < 0) {
            end_round(x, END_DECK);
            return;
        }
        add_to_grid(x, seat, penalty);
    }
    poll_next(x);
}

static void give(Game *x, i64 seat, i64 slot)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 a = g[GIVE_ADDR];
    i64 p = a >> 8;
    i64 to = cell(r, p, a & 255), fro = cell(r, seat, slot);
    i64 known = r->known - r->grid;
    g[to] = g[fro];
    g[to + known] = g[fro + known];
    g[fro] = EMPTY;
    g[fro + known] = 0;
    hand_loses(x, seat, slot);
    hand_gains(x, p, a & 255);
    g[GIVE_ADDR] = -1;
    g[GIVE_SEAT] = -1;
    snap_succeeded(x, seat, p);
}

/* ------------------------------------------------------------------ the actions */
static inline void swap_in(Game *x, i64 seat, i64 a)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 c = cell(r, seat, a);
    i64 old = g[c];
    g[c] = g[HELD];
    g[kcell(r, seat, a)] = g[HELD_FROM_PILE] ? all_seen(r->n) : (i64)1 << seat;
    g[HELD] = EMPTY;
    discard(x, old, seat, r->fire_replaced != 0);
}

static inline void discard_held(Game *x, i64 seat)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 card = g[HELD];
    g[HELD] = EMPTY;
    int fires = !g[HELD_FROM_PILE] || r->fire_replaced != 0;
    discard(x, card, seat, fires);
}

static inline void draw(Game *x)
{
    i64 *g = x->g;
    i64 card = draw_card(x);
    if (card < 0) {
        end_round(x, END_DECK);
        return;
    }
    g[HELD] = card;
    g[HELD_FROM_PILE] = 0;
    g[PHASE] = PH_DRAWN;
}

static inline void call_cambio(Game *x, i64 seat)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    g[CALLER] = seat;
    g[FINAL_LEFT] = r->n - 1;
    next_turn(x);
}

static inline void take(Game *x)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    g[PLEN] -= 1;
    g[HELD] = g[r->pile + g[PLEN]];
    g[HELD_FROM_PILE] = 1;
    g[WINDOW] = WINDOW_CLOSED;
    g[PHASE] = PH_DRAWN;
}

static inline void peek(Game *x, i64 seat, i64 a)
{
    x->g[kcell(&x->r, a >> 8, a & 255)] |= (i64)1 << seat;
    after_discard(x);
}

/* Exchange the cards (and what is known of them) at addresses a and b. */
static inline void switch_cards(Game *x, i64 a, i64 b)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 ca = cell(r, a >> 8, a & 255), cb = cell(r, b >> 8, b & 255);
    i64 known = r->known - r->grid;
    i64 t = g[ca];
    g[ca] = g[cb];
    g[cb] = t;
    t = g[ca + known];
    g[ca + known] = g[cb + known];
    g[cb + known] = t;
    after_discard(x);
}

/* A king's look at a and b, before deciding to switch them. */
static inline void look(Game *x, i64 seat, i64 a, i64 b)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 known = r->known - r->grid;
    i64 bit = (i64)1 << seat;
    g[cell(r, a >> 8, a & 255) + known] |= bit;
    g[cell(r, b >> 8, b & 255) + known] |= bit;
    g[LOOK_A] = a;
    g[LOOK_B] = b;
    g[PHASE] = PH_KING_DECIDE;
}

/* ------------------------------------------------------------------ the uniform policy
 * The numba loop lists the legal actions (batch_kernels.legal, in State.legal_actions
 * order) and plays the one at index lo + pick(z, k - lo), lo = 1 when the list starts with
 * a Cambio call the policy may not make yet. Here each phase counts its actions from the
 * hands' kept lists and plays the one at that index without writing the list: the same
 * index in the same order, so the same action. Each step below names the list it counts. */
static inline i64 pick(u64 zhi, i64 count)
{
    return (i64)((zhi * (u64)count) >> 32);
}

/* The occupied slots of the open hands but skip's (-1: none skipped). */
static inline i64 open_count(Game *x, i64 skip)
{
    i64 shut = x->r.lock_caller ? x->g[CALLER] : -1;
    i64 k = 0;
    for (i64 q = 0; q < x->r.n; q++)
        k += q == shut || q == skip ? 0 : x->cnt[q];
    return k;
}

/* The address of the j-th of them, in seat then slot order (all_slots' and other_slots'
 * order): the seat by running counts, without a branch on the drawn j. */
static inline i64 nth_open(Game *x, i64 j, i64 skip)
{
    i64 shut = x->r.lock_caller ? x->g[CALLER] : -1;
    i64 p = 0, before = 0, upto = 0;
    for (i64 q = 0; q < x->r.n; q++) {
        upto += q == shut || q == skip ? 0 : x->cnt[q];
        i64 past = j >= upto;
        p += past;
        before = past ? upto : before;
    }
    return p << 8 | nth_slot(x, p, j - before);
}

/* Pair j of the n open slots in pairs_into's order (a < b, a first), as (a, b) addresses. */
static inline void nth_pair(Game *x, i64 j, i64 n, i64 *a, i64 *b)
{
    i64 first = 0, row = n - 1;
    while (j >= row) {
        j -= row;
        first += 1;
        row -= 1;
    }
    *a = nth_open(x, first, -1);
    *b = nth_open(x, first + 1 + j, -1);
}

/* A power being used (power_legal's list, then SKIP if powers are optional). */
static inline void power_step(Game *x, u64 zhi)
{
    i64 *g = x->g;
    i64 seat = g[TURN];
    i64 p = g[POWER];
    i64 own = locked(x, seat) ? 0 : x->cnt[seat];
    i64 k, j;
    g[ACTIONS] += 1;
    if (p == P_PEEK_OWN || p == P_PEEK_OTHER) {
        k = p == P_PEEK_OWN ? own : open_count(x, seat);
        j = pick(zhi, k + x->r.optional);
        if (j < k)
            peek(x, seat, p == P_PEEK_OWN ? seat << 8 | nth_slot(x, seat, j)
                                          : nth_open(x, j, seat));
        else
            after_discard(x);
    } else if (p == P_SWAP_OWN_OTHER || p == P_LOOK_MAY) {
        i64 others = open_count(x, seat);
        k = own * others;
        j = pick(zhi, k + x->r.optional);
        if (j >= k) {
            after_discard(x);
            return;
        }
        i64 a = seat << 8 | nth_slot(x, seat, j / others);
        i64 b = nth_open(x, j % others, seat);
        if (p == P_SWAP_OWN_OTHER)
            switch_cards(x, a, b);
        else
            look(x, seat, a, b);
    } else {
        i64 n = open_count(x, -1);
        k = n * (n - 1) / 2;
        j = pick(zhi, k + x->r.optional);
        if (j >= k) {
            after_discard(x);
            return;
        }
        i64 a, b;
        nth_pair(x, j, n, &a, &b);
        if (p == P_SWAP_ANY)
            switch_cards(x, a, b);
        else
            look(x, seat, a, b);
    }
}

/* A king's decision after a look: switch the two cards or keep them (any pair after a look
 * at any two cards). */
static inline void king_step(Game *x, u64 zhi)
{
    i64 *g = x->g;
    g[ACTIONS] += 1;
    if (g[POWER] == P_LOOK_MAY) {
        if (pick(zhi, 2) == 0)
            switch_cards(x, g[LOOK_A], g[LOOK_B]);
        else
            after_discard(x);
        return;
    }
    i64 n = open_count(x, -1);
    i64 a, b;
    nth_pair(x, pick(zhi, n * (n - 1) / 2), n, &a, &b);
    switch_cards(x, a, b);
}

/* One action of the uniform policy (zhi: the high half of its draw). */
static inline void uniform_step(Game *x, u64 zhi, i64 no_call_before)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 ph = g[PHASE];
    if (ph == PH_POLL) {
        /* pass, then snap any occupied slot of an open hand, seat by seat */
        i64 seat = g[POLL + g[POLL_I]];
        i64 j = pick(zhi, 1 + open_count(x, -1));
        g[ACTIONS] += 1;
        if (j == 0)
            poll_next(x);
        else
            snap(x, seat, nth_open(x, j - 1, -1));
        return;
    }
    if (ph == PH_DRAWN) {
        /* swap the held card into an occupied slot, or discard it */
        i64 seat = g[TURN];
        i64 c = x->cnt[seat];
        i64 j = pick(zhi, c + (!g[HELD_FROM_PILE] || c == 0));
        g[ACTIONS] += 1;
        if (j < c)
            swap_in(x, seat, nth_slot(x, seat, j));
        else
            discard_held(x, seat);
        return;
    }
    if (ph == PH_TURN_START) {
        /* [cambio] draw [take] */
        i64 seat = g[TURN];
        i64 cambio = g[CALLER] < 0 && g[TURN_NUMBER] >= r->earliest;
        i64 take_ok = r->draw_from_discard && g[PLEN] > 0 && grid_occupied(x, seat);
        i64 lo = cambio & (g[TURN_NUMBER] < no_call_before);
        i64 j = lo + pick(zhi, cambio + 1 + take_ok - lo);
        g[ACTIONS] += 1;
        if (j < cambio)
            call_cambio(x, seat);
        else if (j == cambio)
            draw(x);
        else
            take(x);
        return;
    }
    if (ph == PH_GIVE) {
        i64 seat = g[GIVE_SEAT];
        i64 j = pick(zhi, x->cnt[seat]);
        g[ACTIONS] += 1;
        give(x, seat, nth_slot(x, seat, j));
        return;
    }
    if (ph == PH_POWER) {
        power_step(x, zhi);
        return;
    }
    king_step(x, zhi);
}

/* ------------------------------------------------------------------ the deal */
static const int PEEK_SLOTS[4] = {2, 3, 0, 1};

/* State.__init__'s shuffle, deal and opening peek, the shuffle's indices drawn (swaps). */
static void deal(Game *x, u64 seed, i64 dealer, const i64 *full, i64 total,
                 const int32_t *swaps)
{
    i64 *g = x->g;
    const Rules *r = &x->r;
    i64 n = r->n;
    memset(g, 0, N_SC * sizeof *g);
    g[SEED] = (i64)seed;
    g[CHANCE] = 1;
    i64 deck = r->deck, pile = r->pile;
    memcpy(g + pile, full, (size_t)total * sizeof *g);
    for (i64 t = 0; t < total - 1; t++) {
        i64 k = pile + total - 1 - t;
        i64 j = pile + swaps[t * LANES];
        i64 c = g[k];
        g[k] = g[j];
        g[j] = c;
    }
    /* g[pile:pile + total] is the shuffled list, top first; seat s gets cards 4s .. 4s+3 */
    for (i64 s = 0; s < n; s++) {
        g[r->glen + s] = 4;
        i64 at = cell(r, s, 0), kat = kcell(r, s, 0);
        for (int j = 0; j < 4; j++) {
            g[at + j] = g[pile + 4 * s + j];
            g[kat + j] = 0;
        }
        for (i64 j = 0; j < r->opening_peek; j++)
            g[kat + PEEK_SLOTS[j]] = (i64)1 << s;
        x->cnt[s] = 4;
        for (int j = 0; j < 4; j++)
            x->held[s * r->slots + j] = (int16_t)j;
    }
    i64 rest = total - 4 * n;
    /* the engine pops from the end: the deck is stored bottom first */
    for (i64 j = 0; j < rest; j++)
        g[deck + j] = g[pile + total - 1 - j];
    g[DLEN] = rest;
    g[PLEN] = 0;
    g[DEALER] = dealer;
    g[TURN] = dealer;
    g[HELD] = EMPTY;
    g[POWER] = P_NONE;
    g[LOOK_A] = -1;
    g[LOOK_B] = -1;
    g[CALLER] = -1;
    g[WINDOW] = WINDOW_CLOSED;
    g[GIVE_ADDR] = -1;
    g[GIVE_SEAT] = -1;
    g[SNAP_SEAT] = -1;
    g[PHASE] = PH_TURN_START;
    next_turn(x);
}

/* ------------------------------------------------------------------ results */
static i64 count_cards(Game *x, i64 seat)
{
    const i64 *g = x->g;
    const Rules *r = &x->r;
    i64 k = 0, at = cell(r, seat, 0), len = g[r->glen + seat];
    for (i64 j = 0; j < len; j++)
        k += g[at + j] >= 0;
    return k;
}

/* The winners as a bitmask of seats (State.winners); row[:n] gets the scores. */
static i64 winners_mask(Game *x, i64 *row)
{
    const i64 *g = x->g;
    const Rules *r = &x->r;
    i64 n = r->n;
    for (i64 s = 0; s < n; s++) {
        i64 t = 0, at = cell(r, s, 0), len = g[r->glen + s];
        for (i64 j = 0; j < len; j++) {
            i64 c = g[at + j];
            if (c >= 0)
                t += r->value[c];
        }
        row[s] = t;
    }
    i64 low = row[0];
    for (i64 s = 1; s < n; s++)
        low = row[s] < low ? row[s] : low;
    i64 tied = 0;
    for (i64 s = 0; s < n; s++)
        if (row[s] == low)
            tied |= (i64)1 << s;
    if (r->most_cards_tie && (tied & (tied - 1))) {
        i64 most = -1;
        for (i64 s = 0; s < n; s++)
            if (tied >> s & 1) {
                i64 c = count_cards(x, s);
                most = c > most ? c : most;
            }
        i64 keep = 0;
        for (i64 s = 0; s < n; s++)
            if ((tied >> s & 1) && count_cards(x, s) == most)
                keep |= (i64)1 << s;
        tied = keep;
        i64 caller = g[CALLER];
        if ((tied & (tied - 1)) && caller >= 0 && (tied >> caller & 1))
            tied &= ~((i64)1 << caller);
    }
    return tied;
}

static void result_into(Game *x, i64 *row)
{
    const i64 *g = x->g;
    const Rules *r = &x->r;
    i64 n = r->n;
    row[n + RES_WINNERS] = winners_mask(x, row);
    row[n + RES_TURNS] = g[TURN_NUMBER];
    row[n + RES_ACTIONS] = g[ACTIONS];
    row[n + RES_END] = g[END_REASON];
    row[n + RES_CALLER] = g[CALLER];
}

/* ------------------------------------------------------------------ the loop */
typedef struct {
    const u64 *seeds;
    i64 rounds;
    const i64 *full;
    i64 total;
    i64 *g;
    const i64 *rf;
    u64 policy_seed;
    i64 no_call_before;
    i64 *res;
    i64 *frames;      /* NULL, or room for max_frames records: the record after each action */
    i64 max_frames;
    i64 written;      /* frames written */
} Call;

static void rules_of(const i64 *rf, Rules *r)
{
    r->value = rf + R_VALUES;
    r->power = rf + R_POWERS;
    r->n = rf[R_PLAYERS];
    r->draw_from_discard = rf[R_DRAW_FROM_DISCARD];
    r->fire_replaced = rf[R_FIRE_REPLACED];
    r->optional = rf[R_OPTIONAL];
    r->snapper_only = rf[R_SNAPPER_ONLY];
    r->one_snap = rf[R_ONE_SNAP];
    r->penalty = rf[R_PENALTY];
    r->max_grid = rf[R_MAX_GRID];
    r->lock_caller = rf[R_LOCK_CALLER];
    r->caller_may_snap = rf[R_CALLER_MAY_SNAP];
    r->auto_call = rf[R_AUTO_CALL];
    r->earliest = rf[R_EARLIEST];
    r->max_turns = rf[R_MAX_TURNS];
    r->opening_peek = rf[R_OPENING_PEEK];
    r->most_cards_tie = rf[R_MOST_CARDS_TIE];
    r->slots = rf[R_SLOTS];
    r->glen = rf[R_GLEN];
    r->deck = rf[R_DECK];
    r->pile = rf[R_PILE];
    r->grid = rf[R_GRID];
    r->known = rf[R_KNOWN];
    r->width = rf[R_WIDTH];
}

/* Returns 0, or -1 if memory ran out. */
static int play_rounds(Call *c)
{
    i64 d = c->total;
    i64 n = c->rf[R_PLAYERS];
    int16_t *held = malloc((size_t)(n * d) * sizeof *held);
    u32 *mts = aligned_alloc(64, 625 * LANES * sizeof *mts);
    u32 *kw = aligned_alloc(64, 2 * LANES * sizeof *kw);
    int32_t *swaps = aligned_alloc(64, (size_t)(d * LANES) * sizeof *swaps);
    Game *x = malloc(sizeof *x);
    int status = 0;
    if (!held || !mts || !kw || !swaps || !x) {
        status = -1;
        goto done;
    }
    rules_of(c->rf, &x->r);
    x->g = c->g;
    x->held = held;
    i64 *g = c->g;
    i64 width = n + N_RES;
    /* The policy's next draw is computed one action ahead (it does not depend on the game). */
    u64 ctr = c->policy_seed + 1U;
    u64 z = mix64(ctr);
    for (i64 first = 0; first < c->rounds; first += LANES) {
        int count = c->rounds - first < LANES ? (int)(c->rounds - first) : LANES;
        for (int lane = 0; lane < LANES; lane++) {
            u64 key = lane < count ? deal_key(c->seeds[first + lane]) : 0;
            u32 lo = (u32)key, hi = (u32)(key >> 32);
            kw[lane] = lo;
            kw[LANES + lane] = hi ? hi + 1U : lo;
        }
        seed_lanes(mts, kw);
        deal_swaps(mts, (int)d, count, swaps, x->mt);
        for (int lane = 0; lane < count; lane++) {
            i64 i = first + lane;
            deal(x, c->seeds[i], n - 1, c->full, d, swaps + lane);
            while (g[PHASE] != PH_ROUND_OVER) {
                u64 zhi = z >> 32;
                ctr += 1U;
                z = mix64(ctr);
                uniform_step(x, zhi, c->no_call_before);
                /* for the tests (every frame against numba's); a branch the loop hoists */
                if (__builtin_expect(c->frames != NULL, 0) && c->written < c->max_frames)
                    memcpy(c->frames + c->written++ * x->r.width, g, x->r.width * sizeof *g);
            }
            result_into(x, c->res + i * width);
        }
    }
done:
    free(held);
    free(mts);
    free(kw);
    free(swaps);
    free(x);
    return status;
}

/* ------------------------------------------------------------------ Python */
/* A C-contiguous buffer of 64-bit integers (numpy's int64 or uint64), else an error. */
static int get_buffer(PyObject *obj, Py_buffer *view, int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return -1;
    const char *format = view->format ? view->format : "B";
    size_t len = strlen(format);
    char code = len ? format[len - 1] : 'B';
    if (view->itemsize != 8 || !strchr("lqLQ", code) || len > 2
        || (len == 2 && !strchr("@=<", format[0]))) {
        PyErr_Format(PyExc_TypeError, "%s must hold 64-bit integers", name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Whether the record's layout in rf is batch_kernels.layout()'s for its players and a slot
 * per card, the deck's cards have values, and g and res have room: nothing is then
 * written or read out of bounds. */
static int fits(const i64 *rf, const i64 *full, Py_ssize_t total, Py_ssize_t width,
                Py_ssize_t rounds, Py_ssize_t results)
{
    i64 n = rf[R_PLAYERS], slots = rf[R_SLOTS];
    if (n < 2 || n > 62 || slots != total || total < 4 * n)
        return 0;
    i64 glen = POLL + n, deck = glen + n, pile = deck + slots, grid = pile + slots,
        known = grid + n * slots;
    if (rf[R_GLEN] != glen || rf[R_DECK] != deck || rf[R_PILE] != pile || rf[R_GRID] != grid
        || rf[R_KNOWN] != known || rf[R_WIDTH] != known + n * slots || width < rf[R_WIDTH]
        || results != rounds * (n + N_RES))
        return 0;
    for (Py_ssize_t j = 0; j < total; j++)
        if (full[j] < 0 || full[j] >= 56)
            return 0;
    return 1;
}

PyDoc_STRVAR(play_doc,
"play_uniform(seeds, full, g, rf, policy_seed, no_call_before, res, frames=None)\n--\n\n"
"Rounds of uniform random play, as batch_kernels.play_uniform_all plays them:\n"
"seeds uint64 (rounds,); full int64, the deck dealt; g int64, one record (the last round's\n"
"is left in it); rf int64, the flattened rules; res int64 (rounds, players + N_RES).\n"
"frames: int64 room for whole records, filled with the record after each action while\n"
"there is room (for the tests). Returns the number of frames written.");

static PyObject *py_play_uniform(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *o_seeds, *o_full, *o_g, *o_rf, *o_res, *o_policy, *o_frames = Py_None;
    long long no_call_before;
    if (!PyArg_ParseTuple(args, "OOOOOLO|O", &o_seeds, &o_full, &o_g, &o_rf, &o_policy,
                          &no_call_before, &o_res, &o_frames))
        return NULL;
    unsigned long long policy_seed = PyLong_AsUnsignedLongLongMask(o_policy);
    if (policy_seed == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    /* seeds, full, g, rf, res, and frames if given */
    PyObject *objects[6] = {o_seeds, o_full, o_g, o_rf, o_res, o_frames};
    static const char *const names[6] = {"seeds", "full", "g", "rf", "res", "frames"};
    static const int writable[6] = {0, 0, 1, 0, 1, 1};
    int wanted = o_frames == Py_None ? 5 : 6;
    Py_buffer views[6];
    int got = 0;
    PyObject *result = NULL;
    for (; got < wanted; got++)
        if (get_buffer(objects[got], &views[got], writable[got], names[got]) < 0)
            goto out;
    Py_buffer *seeds = &views[0], *full = &views[1], *g = &views[2], *rf = &views[3],
              *res = &views[4];
    /* rf may go on past R_WIDTH with flags of rules this kernel does not implement: the
     * Python side (batch_c.c_blockers) never hands it a rule set that sets them. */
    if (rf->len / 8 < N_RF) {
        PyErr_SetString(PyExc_ValueError, "rf is not a flattened rule set of this kernel");
        goto out;
    }
    if (!fits(rf->buf, full->buf, full->len / 8, g->len / 8, seeds->len / 8, res->len / 8)) {
        PyErr_SetString(PyExc_ValueError, "the arrays do not fit the rule set's layout");
        goto out;
    }
    for (int j = 0; j < 56; j++) {
        i64 power = ((const i64 *)rf->buf)[R_POWERS + j];
        if (power < 0 || power >= N_POWERS) {
            PyErr_SetString(PyExc_ValueError, "a power this kernel does not play");
            goto out;
        }
    }
    i64 width = ((const i64 *)rf->buf)[R_WIDTH];
    Call call = {seeds->buf, seeds->len / 8, full->buf, full->len / 8, g->buf, rf->buf,
                 policy_seed, (i64)no_call_before, res->buf,
                 wanted == 6 ? views[5].buf : NULL, wanted == 6 ? views[5].len / 8 / width : 0, 0};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = play_rounds(&call);
    Py_END_ALLOW_THREADS
    if (status < 0) {
        PyErr_NoMemory();
        goto out;
    }
    result = PyLong_FromLongLong(call.written);
out:
    while (got-- > 0)
        PyBuffer_Release(&views[got]);
    return result;
}

PyDoc_STRVAR(constants_doc,
"constants()\n--\n\n"
"The layout this kernel was written for, by batch_kernels.py's names (the Python side\n"
"compares them before using the kernel).");

static PyObject *py_constants(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return Py_BuildValue(
        "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,"
        "s:i,s:i,s:i}",
        "N_SC", N_SC, "POLL", POLL, "SEED", SEED, "ACTIONS", ACTIONS, "SNAP_RIGHT", SNAP_RIGHT,
        "PHASE", PHASE, "CHANCE", CHANCE, "DLEN", DLEN, "PLEN", PLEN, "CALLER", CALLER,
        "WINDOW", WINDOW, "TURN_NUMBER", TURN_NUMBER, "R_PLAYERS", R_PLAYERS,
        "R_MOST_CARDS_TIE", R_MOST_CARDS_TIE, "R_SLOTS", R_SLOTS, "R_WIDTH", R_WIDTH,
        "P_LOOK_ANY", P_LOOK_ANY, "PH_ROUND_OVER", PH_ROUND_OVER, "N_RES", N_RES,
        "RES_CALLER", RES_CALLER, "SWAP_DECK", SWAP_DECK, "END_TURN_CAP", END_TURN_CAP,
        "WINDOW_CLOSED", WINDOW_CLOSED);
}

static PyMethodDef methods[] = {
    {"play_uniform", py_play_uniform, METH_VARARGS, play_doc},
    {"constants", py_constants, METH_NOARGS, constants_doc},
    {NULL, NULL, 0, NULL},
};

#ifndef CAMBIO_SOURCE_SHA256
#define CAMBIO_SOURCE_SHA256 ""
#endif
#ifndef CAMBIO_CFLAGS
#define CAMBIO_CFLAGS ""
#endif

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_uniform",
    "Whole rounds of uniform random play in C (see cambio.cards.batch_c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__uniform(void)
{
    mt_base_init();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    /* What the build compiled: the source's hash (the stale-build guard) and the compiler. */
    if (PyModule_AddStringConstant(m, "SOURCE_SHA256", CAMBIO_SOURCE_SHA256) < 0
        || PyModule_AddStringConstant(m, "COMPILER", __VERSION__) < 0
        || PyModule_AddStringConstant(m, "CFLAGS", CAMBIO_CFLAGS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
