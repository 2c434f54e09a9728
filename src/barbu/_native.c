/* barbu._native: compiled kernels of trick play, behind barbu.accel.
 *
 * The rules are those of barbu.tricks.TrickPlay (legal cards, trick winner, apply) and
 * of the contracts' scoring as a linear score model that barbu.accel reads from the
 * contract itself; tests/test_native.py proves both paths give identical results.
 * Nothing here is reached from outside unchecked: barbu.accel packs states the
 * checked door or the core built.
 *
 * A packed state is a tuple (see barbu.accel.pack):
 *   (players, direction, trump, heart_rule, heart_broken_mode, penalty, early_end,
 *    must_trump, overtrump, undertrump, tricks_total, leader, turn, played, finished,
 *    hands, trick, captured, winners)
 * with -1 for no trump and cards 0..51 as bits of 64-bit masks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#define MAXP 6
#define MAXT 26
#define HEARTS_MASK (0x1FFFULL << 13)
#define SUIT(s) (0x1FFFULL << (13 * (s)))

typedef struct {
    int players, direction, trump, heart_rule, heart_broken, must_trump, overtrump, undertrump;
    int tricks_total, leader, turn, finished, tlen, nwin;
    uint64_t penalty, early_end, played;
    uint64_t hands[MAXP], captured[MAXP];
    int trick[MAXP];
    int winners[MAXT];
} TP;

typedef struct {
    long card[52];
    long per_trick, first, second_last, last;
} Model;

static int top_bit(uint64_t m) { return 63 - __builtin_clzll(m); }
static int low_bit(uint64_t m) { return __builtin_ctzll(m); }

/* ---- reading and writing packed states -------------------------------------------- */

static int get_int(PyObject *t, Py_ssize_t i, long *out) {
    PyObject *v = PyTuple_GET_ITEM(t, i);
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

static int get_mask(PyObject *v, uint64_t *out) {
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (x >> 52) {
        PyErr_SetString(PyExc_ValueError, "a card mask holds cards 0 to 51 only");
        return -1;
    }
    *out = x;
    return 0;
}

/* A hand or captured mask of the Python classes: any 64 bits (a caller may keep a marker bit
 * above the deck, as the pure classes allow); cards played stay 0..51. */
static int get_u64(PyObject *v, uint64_t *out) {
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

static int seq_masks(PyObject *seq, uint64_t *out, int max, int *count) {
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) > max) {
        PyErr_SetString(PyExc_ValueError, "a packed state holds tuples of at most six seats");
        return -1;
    }
    *count = (int)PyTuple_GET_SIZE(seq);
    for (int i = 0; i < *count; i++)
        if (get_mask(PyTuple_GET_ITEM(seq, i), &out[i]) < 0) return -1;
    return 0;
}

static int seq_ints(PyObject *seq, int *out, int max, int *count, int lo, int hi) {
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) > max) {
        PyErr_SetString(PyExc_ValueError, "a packed state's trick or winners tuple is too long");
        return -1;
    }
    *count = (int)PyTuple_GET_SIZE(seq);
    for (int i = 0; i < *count; i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
        if (x == -1 && PyErr_Occurred()) return -1;
        if (x < lo || x > hi) {
            PyErr_SetString(PyExc_ValueError, "a packed state holds a card or seat out of range");
            return -1;
        }
        out[i] = (int)x;
    }
    return 0;
}

/* A state the core could have made: the seat to act follows the trick's leader, hands and
 * played cards are disjoint, and every seat holds one card per trick still to play (one
 * fewer once it has played to the current trick), so that no kernel ever meets an empty hand. */
static int check(const TP *s) {
    int n = s->players;
    if (s->direction != 1 && s->direction != -1) goto bad;
    if (s->finished) return 0;
    if (s->nwin >= s->tricks_total) goto bad;
    int turn = ((s->leader + s->direction * s->tlen) % n + n) % n;
    if (turn != s->turn) goto bad;
    uint64_t seen = s->played;
    for (int i = 0; i < s->tlen; i++) {
        uint64_t bit = 1ULL << s->trick[i];
        if (seen & bit) goto bad;
        seen |= bit;
    }
    int left = s->tricks_total - s->nwin;
    for (int p = 0; p < n; p++) {
        if (seen & s->hands[p]) goto bad;
        seen |= s->hands[p];
        int offset = ((p - s->leader) * s->direction % n + n) % n;
        if (__builtin_popcountll(s->hands[p]) != left - (offset < s->tlen ? 1 : 0)) goto bad;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError,
                    "a packed state must be one the core could make: seats in turn, disjoint hands, "
                    "one card per seat for each trick left");
    return -1;
}

static int unpack(PyObject *o, TP *s) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 19) {
        PyErr_SetString(PyExc_ValueError, "a packed state is a tuple of 19 fields (see barbu.accel.pack)");
        return -1;
    }
    long v[15];
    for (int i = 0; i < 15; i++)
        if (i != 5 && i != 6 && i != 13 && get_int(o, i, &v[i]) < 0) return -1;
    memset(s, 0, sizeof *s);
    s->players = (int)v[0];
    if (s->players < 2 || s->players > MAXP) {
        PyErr_SetString(PyExc_ValueError, "a packed state has 2 to 6 seats");
        return -1;
    }
    s->direction = (int)v[1];
    s->trump = (int)v[2];
    s->heart_rule = (int)v[3];
    s->heart_broken = (int)v[4];
    s->must_trump = (int)v[7];
    s->overtrump = (int)v[8];
    s->undertrump = (int)v[9];
    s->tricks_total = (int)v[10];
    s->leader = (int)v[11];
    s->turn = (int)v[12];
    s->finished = (int)v[14];
    if (s->trump < -1 || s->trump > 3 || s->tricks_total < 0 || s->tricks_total > MAXT || s->leader < 0 ||
        s->leader >= s->players || s->turn < 0 || s->turn >= s->players) {
        PyErr_SetString(PyExc_ValueError, "a packed state's trump, tricks or seats are out of range");
        return -1;
    }
    if (get_mask(PyTuple_GET_ITEM(o, 5), &s->penalty) < 0 || get_mask(PyTuple_GET_ITEM(o, 6), &s->early_end) < 0 ||
        get_mask(PyTuple_GET_ITEM(o, 13), &s->played) < 0)
        return -1;
    int n;
    if (seq_masks(PyTuple_GET_ITEM(o, 15), s->hands, MAXP, &n) < 0) return -1;
    if (n != s->players) goto bad;
    if (seq_ints(PyTuple_GET_ITEM(o, 16), s->trick, s->players - 1, &s->tlen, 0, 51) < 0) return -1;
    if (seq_masks(PyTuple_GET_ITEM(o, 17), s->captured, MAXP, &n) < 0) return -1;
    if (n != s->players) goto bad;
    if (seq_ints(PyTuple_GET_ITEM(o, 18), s->winners, s->tricks_total, &s->nwin, 0, s->players - 1) < 0) return -1;
    return check(s);
bad:
    PyErr_SetString(PyExc_ValueError, "a packed state needs one hand and one captured mask per seat");
    return -1;
}

static PyObject *mask_tuple(const uint64_t *m, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromUnsignedLongLong(m[i]);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *int_tuple(const int *m, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(m[i]);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *pack(const TP *s) {
    PyObject *hands = mask_tuple(s->hands, s->players), *trick = int_tuple(s->trick, s->tlen),
             *captured = mask_tuple(s->captured, s->players), *winners = int_tuple(s->winners, s->nwin);
    if (!hands || !trick || !captured || !winners) {
        Py_XDECREF(hands);
        Py_XDECREF(trick);
        Py_XDECREF(captured);
        Py_XDECREF(winners);
        return NULL;
    }
    return Py_BuildValue("(iiiiiKKiiiiiiKiNNNN)", s->players, s->direction, s->trump, s->heart_rule, s->heart_broken,
                         (unsigned long long)s->penalty, (unsigned long long)s->early_end, s->must_trump,
                         s->overtrump, s->undertrump, s->tricks_total, s->leader, s->turn,
                         (unsigned long long)s->played, s->finished, hands, trick, captured, winners);
}

/* ---- the rules: the same facts as TrickPlay.legal_for, taker and play ----------------- */

static uint64_t legal_for(const TP *s, uint64_t hand, const int *trick, int tlen, uint64_t played) {
    if (tlen == 0) {
        if (s->heart_rule) {
            uint64_t others = hand & ~HEARTS_MASK;
            if (others && !(s->heart_broken && (played & HEARTS_MASK))) return others;
        }
        return hand;
    }
    uint64_t led = SUIT(trick[0] / 13);
    uint64_t follow = hand & led;
    if (s->trump < 0) {
        if (s->penalty) {
            if (follow) {
                int high = 0;
                for (int i = 0; i < tlen; i++)
                    if (trick[i] > high && ((1ULL << trick[i]) & led)) high = trick[i];
                uint64_t forced = follow & s->penalty & ((1ULL << high) - 1);
                return forced ? forced : follow;
            }
            return (hand & s->penalty) ? (hand & s->penalty) : hand;
        }
        return follow ? follow : hand;
    }
    uint64_t tm = SUIT(s->trump);
    int top = -1;
    for (int i = 0; i < tlen; i++)
        if (trick[i] > top && ((1ULL << trick[i]) & tm)) top = trick[i];
    uint64_t above = ~((2ULL << top) - 1); /* top == -1: every card */
    if (top < 0) above = ~0ULL;
    if (led == tm) {
        if (!follow) return hand;
        uint64_t higher = follow & above;
        return (s->overtrump && higher) ? higher : follow;
    }
    if (follow) return follow;
    uint64_t mine = hand & tm;
    if (!mine) return hand;
    if (top < 0) return s->must_trump ? mine : hand;
    if (s->overtrump) {
        uint64_t higher = mine & above;
        if (higher) return higher;
    }
    return s->undertrump ? mine : hand;
}

static int taker(const TP *s, const int *trick, int tlen, uint64_t mask, int leader) {
    int best;
    if (s->trump >= 0 && (mask & SUIT(s->trump)))
        best = top_bit(mask & SUIT(s->trump));
    else
        best = top_bit(mask & SUIT(trick[0] / 13));
    int at = 0;
    for (int i = 0; i < tlen; i++)
        if (trick[i] == best) { at = i; break; }
    int seat = (leader + s->direction * at) % s->players;
    return seat < 0 ? seat + s->players : seat;
}

static int next_seat(const TP *s, int seat) {
    int n = (seat + s->direction) % s->players;
    return n < 0 ? n + s->players : n;
}

static void play(TP *s, int card) {
    int seat = s->turn;
    s->hands[seat] &= ~(1ULL << card);
    s->trick[s->tlen++] = card;
    if (s->tlen < s->players) {
        s->turn = next_seat(s, seat);
        return;
    }
    uint64_t mask = 0;
    for (int i = 0; i < s->tlen; i++) mask |= 1ULL << s->trick[i];
    int w = taker(s, s->trick, s->tlen, mask, s->leader);
    s->captured[w] |= mask;
    s->played |= mask;
    s->winners[s->nwin++] = w;
    s->tlen = 0;
    s->leader = s->turn = w;
    if (s->nwin == s->tricks_total || (s->early_end && (s->played & s->early_end) == s->early_end)) s->finished = 1;
}

static void raw_scores(const TP *s, const Model *m, const uint64_t *captured, const int *winners, int nwin,
                       long *raw) {
    for (int p = 0; p < s->players; p++) {
        long v = 0;
        uint64_t c = captured[p];
        while (c) {
            int k = low_bit(c);
            c &= c - 1;
            v += m->card[k];
        }
        raw[p] = v;
    }
    for (int i = 0; i < nwin; i++) raw[winners[i]] += m->per_trick;
    if (nwin >= 1) {
        raw[winners[0]] += m->first;
        raw[winners[nwin - 1]] += m->last;
    }
    if (nwin >= 2) raw[winners[nwin - 2]] += m->second_last;
}

static int unpack_model(PyObject *o, Model *m) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 56) {
        PyErr_SetString(PyExc_ValueError, "a score model is a tuple of 56 ints (see barbu.accel.score_model)");
        return -1;
    }
    long v;
    for (int i = 0; i < 56; i++) {
        if (get_int(o, i, &v) < 0) return -1;
        if (i < 52) m->card[i] = v;
        else if (i == 52) m->per_trick = v;
        else if (i == 53) m->first = v;
        else if (i == 54) m->second_last = v;
        else m->last = v;
    }
    return 0;
}

typedef struct { int a, b; long m; } PairT;

static int unpack_pairs(PyObject *o, PairT *pairs, int *np, int players) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) > 32) {
        PyErr_SetString(PyExc_ValueError, "pairs are a tuple of (doubler, doubled, multiplier)");
        return -1;
    }
    *np = (int)PyTuple_GET_SIZE(o);
    for (int i = 0; i < *np; i++) {
        PyObject *t = PyTuple_GET_ITEM(o, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
            PyErr_SetString(PyExc_ValueError, "pairs are a tuple of (doubler, doubled, multiplier)");
            return -1;
        }
        long a, b, m;
        if (get_int(t, 0, &a) < 0 || get_int(t, 1, &b) < 0 || get_int(t, 2, &m) < 0) return -1;
        if (a < 0 || a >= players || b < 0 || b >= players) {
            PyErr_SetString(PyExc_ValueError, "a pair names a seat out of range");
            return -1;
        }
        pairs[i].a = (int)a;
        pairs[i].b = (int)b;
        pairs[i].m = m;
    }
    return 0;
}


/* ---- the rules of thumb: the same choices as barbu.bots.card_play.choose_card ---------------- */

#define DECK52 ((1ULL << 52) - 1)

typedef struct {
    int take; /* kind "take" (else "avoid") */
    double cost[52];
    double trick_cost[MAXT];
    uint64_t costly, positive, deck;
    int later[MAXT];
    int tricks;
} Guide;

static int unpack_guide(PyObject *o, Guide *g, int tricks_total) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 8) {
        PyErr_SetString(PyExc_ValueError, "a guide is a tuple of 8 fields (see barbu.accel.pack_guide)");
        return -1;
    }
    long v;
    if (get_int(o, 0, &v) < 0) return -1;
    g->take = (int)v;
    PyObject *cost = PyTuple_GET_ITEM(o, 1), *trick = PyTuple_GET_ITEM(o, 2), *later = PyTuple_GET_ITEM(o, 5);
    if (!PyTuple_Check(cost) || PyTuple_GET_SIZE(cost) != 52 || !PyTuple_Check(trick) ||
        PyTuple_GET_SIZE(trick) != tricks_total || !PyTuple_Check(later) || PyTuple_GET_SIZE(later) != tricks_total) {
        PyErr_SetString(PyExc_ValueError, "a guide has 52 card costs and one trick cost per trick");
        return -1;
    }
    for (int c = 0; c < 52; c++) {
        g->cost[c] = PyFloat_AsDouble(PyTuple_GET_ITEM(cost, c));
        if (PyErr_Occurred()) return -1;
    }
    for (int i = 0; i < tricks_total; i++) {
        g->trick_cost[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(trick, i));
        if (PyErr_Occurred()) return -1;
        int b = PyObject_IsTrue(PyTuple_GET_ITEM(later, i));
        if (b < 0) return -1;
        g->later[i] = b;
    }
    if (get_mask(PyTuple_GET_ITEM(o, 3), &g->costly) < 0 || get_mask(PyTuple_GET_ITEM(o, 4), &g->positive) < 0 ||
        get_mask(PyTuple_GET_ITEM(o, 6), &g->deck) < 0 || get_int(o, 7, &v) < 0)
        return -1;
    g->tricks = (int)v;
    return 0;
}

static uint64_t below(int c) { return (1ULL << c) - 1; }
static uint64_t above(int c) { return DECK52 & ~((2ULL << c) - 1); }
static int highest(uint64_t m) { return m ? top_bit(m) : -1; }
static int pop(uint64_t m) { return __builtin_popcountll(m); }

static double cost_of(uint64_t mask, const double *cost) {
    double total = 0.0;
    while (mask) {
        total += cost[low_bit(mask)];
        mask &= mask - 1;
    }
    return total;
}

static uint64_t trick_mask(const TP *s) {
    uint64_t m = 0;
    for (int i = 0; i < s->tlen; i++) m |= 1ULL << s->trick[i];
    return m;
}

/* min over the cards of mask by (cost, card) (low_card) or (cost, -card) */
static int cheapest(uint64_t mask, const double *cost, int low_card) {
    int best = -1;
    while (mask) {
        int c = low_bit(mask);
        mask &= mask - 1;
        if (best < 0 || (low_card ? cost[c] < cost[best] : cost[c] <= cost[best])) best = c;
    }
    return best;
}

static int future_risk(const TP *s, const Guide *g, int index) {
    if (g->later[index]) return 1;
    return (g->deck & ~s->played & g->positive) != 0;
}

static int avoid_discard(const TP *s, int seat, uint64_t legal, uint64_t out, const Guide *g) {
    const double *cost = g->cost;
    uint64_t penalty = legal & g->positive;
    if (penalty) {
        int best = -1;
        while (penalty) {
            int c = low_bit(penalty);
            penalty &= penalty - 1;
            if (best < 0 || cost[c] >= cost[best]) best = c;
        }
        return best;
    }
    uint64_t hand = s->hands[seat];
    int best = low_bit(legal);
    double best_danger = -1.0;
    uint64_t m = legal;
    while (m) {
        int c = low_bit(m);
        m &= m - 1;
        uint64_t mask = SUIT(c / 13);
        uint64_t out_s = out & mask;
        double danger;
        if (!out_s)
            danger = 1.0 + (double)(c % 13) / 100.0;
        else {
            int beaten = pop(out_s & below(c));
            int cover = pop(hand & mask & below(c));
            danger = (double)beaten / (double)(pop(out_s) * (1 + cover)) + (double)(c % 13) / 100.0;
        }
        double gain = -cost[c];
        danger -= (gain > 0.0 ? gain : 0.0) / 10.0;
        if (danger > best_danger) {
            best = c;
            best_danger = danger;
        }
    }
    return best;
}

static int avoid_lead(const TP *s, int seat, uint64_t legal, uint64_t out, const Guide *g) {
    const double *cost = g->cost;
    uint64_t costly = g->costly;
    int index = s->nwin;
    int tricks_left = g->tricks - index;
    double penalty_out = cost_of(out & costly, cost);
    double per_trick = (penalty_out > 0.0 ? penalty_out : 0.0) / (double)(tricks_left > 1 ? tricks_left : 1);
    uint64_t hand = s->hands[seat];
    int n = s->players;
    int best = -1;
    double best_score = 0.0;
    for (int su = 0; su < 4; su++) {
        uint64_t mask = SUIT(su);
        uint64_t mine = legal & mask;
        if (!mine) continue;
        uint64_t out_s = out & mask;
        double trick_cost = g->trick_cost[index];
        int cand;
        double p_win, pen;
        if (!out_s) {
            cand = (mine & costly) ? cheapest(mine, cost, 0) : top_bit(mine);
            p_win = 1.0;
            pen = per_trick * (double)(n - 1);
        } else {
            uint64_t safe = mine & ((out_s & -out_s) - 1);
            if (safe) {
                cand = top_bit(safe);
                p_win = pop(out_s) >= n - 1 ? 0.05 : 0.3;
            } else {
                cand = low_bit(mine);
                int lo = pop(out_s & below(cand));
                int hi = pop(out_s) - lo;
                p_win = hi ? pow((double)lo / (double)(lo + hi), 2.0) : 1.0;
            }
            uint64_t taken = out_s & costly & below(cand);
            pen = (taken ? cost_of(taken, cost) : 0.0) * 0.5 + per_trick * 0.5;
        }
        double score = p_win * (trick_cost + cost[cand] + pen);
        uint64_t driven = out_s & costly & ~((2ULL << cand) - 1);
        score -= 0.15 * (driven ? cost_of(driven, cost) : 0.0) * (1.0 - p_win);
        double risk = trick_cost + per_trick;
        score += 0.1 * (double)pop(hand & mask & ~((2ULL << cand) - 1)) * (risk > 0.0 ? risk : 0.0);
        score += 0.02 * (double)pop(mine);
        if (best < 0 || score < best_score) {
            best = cand;
            best_score = score;
        }
    }
    return best;
}

static int avoid(const TP *s, int seat, uint64_t legal, const Guide *g) {
    uint64_t hand = s->hands[seat];
    const double *cost = g->cost;
    int index = s->nwin;
    uint64_t in_trick = trick_mask(s);
    uint64_t out = g->deck & ~(s->played | in_trick | hand);
    if (!s->tlen) return avoid_lead(s, seat, legal, out, g);
    uint64_t led = SUIT(s->trick[0] / 13);
    uint64_t follow = legal & led;
    int last = s->tlen == s->players - 1;
    int high = top_bit(in_trick & led);
    double trick_cost = g->trick_cost[index];
    double sum = 0.0;
    for (int i = 0; i < s->tlen; i++) sum += cost[s->trick[i]];
    double penalty_now = trick_cost + sum;
    if (follow) {
        uint64_t under = follow & below(high);
        uint64_t over = follow & ~under;
        if (under) {
            int best = top_bit(under);
            if (last && over && penalty_now <= 0 && trick_cost <= 0) {
                int shed = -1;
                uint64_t m = over;
                while (m) {
                    int c = low_bit(m);
                    m &= m - 1;
                    if (cost[c] <= 0) shed = c;
                }
                if (shed >= 0 && future_risk(s, g, index)) return shed;
            }
            return best;
        }
        int low_first = !last && penalty_now > 0 && (out & led & above(low_bit(follow)));
        if (!(follow & g->costly)) return low_first ? low_bit(follow) : top_bit(follow);
        return cheapest(follow, cost, low_first);
    }
    return avoid_discard(s, seat, legal, out, g);
}

static int weakest(uint64_t cards, uint64_t out) {
    int best = -1, k0 = 9, k1 = 99, k2 = 99;
    uint64_t m = cards;
    while (m) {
        int c = low_bit(m);
        m &= m - 1;
        uint64_t mask = SUIT(c / 13);
        uint64_t out_s = out & mask;
        int master = (!out_s || c > highest(out_s)) ? 1 : 0;
        int a = master, b = pop(cards & mask), d = c % 13;
        if (a < k0 || (a == k0 && (b < k1 || (b == k1 && d < k2)))) {
            best = c;
            k0 = a;
            k1 = b;
            k2 = d;
        }
    }
    return best;
}

static int inner_sequence(uint64_t mine, uint64_t out) {
    int best = -1, best_len = 2;
    for (int su = 0; su < 4; su++) {
        uint64_t mask = SUIT(su);
        int cards[13], k = 0;
        uint64_t m = mine & mask;
        while (m) {
            int c = top_bit(m);
            m &= ~(1ULL << c);
            cards[k++] = c;
        }
        uint64_t out_s = out & mask;
        int i = 0;
        while (i < k) {
            int j = i;
            while (j + 1 < k && !(out_s & below(cards[j]) & above(cards[j + 1]))) j++;
            int length = j - i + 1;
            int top = cards[i];
            int over = pop(out_s & above(top));
            if (length > best_len && over >= 1 && over <= 2 && top % 13 >= 7) {
                best = top;
                best_len = length;
            }
            i = j + 1;
        }
    }
    return best;
}

static int take_lead(uint64_t legal, uint64_t out, uint64_t tm) {
    uint64_t mine_trumps = legal & tm, out_trumps = out & tm;
    if (mine_trumps && out_trumps) {
        int inner = inner_sequence(mine_trumps, out);
        if (inner >= 0) return inner;
        int top = top_bit(mine_trumps);
        if (top > top_bit(out_trumps)) return top;
        if (pop(mine_trumps) >= 4 || pop(mine_trumps) > pop(out_trumps)) return low_bit(mine_trumps);
    }
    int best = -1, k0 = -1, k1 = -1;
    for (int su = 0; su < 4; su++) {
        uint64_t mask = SUIT(su);
        uint64_t mine = legal & mask & ~tm;
        uint64_t out_s = out & mask;
        if (mine && out_s && top_bit(mine) > top_bit(out_s)) {
            int a = pop(out_s), b = pop(mine);
            if (a > k0 || (a == k0 && b > k1)) {
                best = top_bit(mine);
                k0 = a;
                k1 = b;
            }
        }
    }
    if (best >= 0) return best;
    uint64_t side = (legal & ~tm) ? (legal & ~tm) : legal;
    int inner = inner_sequence(side, out);
    if (inner >= 0) return inner;
    int longest = 0, most = -1;
    for (int su = 0; su < 4; su++) {
        int cnt = pop(side & SUIT(su));
        if (cnt >= most) {
            most = cnt;
            longest = su;
        }
    }
    return low_bit(side & SUIT(longest));
}

static int take(const TP *s, int seat, uint64_t legal, const Guide *g) {
    uint64_t hand = s->hands[seat];
    uint64_t tm = s->trump >= 0 ? SUIT(s->trump) : 0;
    uint64_t out = g->deck & ~(s->played | trick_mask(s) | hand);
    if (!s->tlen) return take_lead(legal, out, tm);
    uint64_t led = SUIT(s->trick[0] / 13);
    int trumps_in = 0, cur = -1, cur_led = -1;
    for (int i = 0; i < s->tlen; i++) {
        int c = s->trick[i];
        if ((1ULL << c) & tm) {
            trumps_in = 1;
            if (c > cur) cur = c;
        }
        if (((1ULL << c) & led) && c > cur_led) cur_led = c;
    }
    if (!trumps_in) cur = cur_led;
    int last = s->tlen == s->players - 1;
    uint64_t follow = legal & led;
    if (follow) {
        if (trumps_in && led != tm) return low_bit(follow);
        uint64_t beat = follow & above(cur);
        if (!beat) return low_bit(follow);
        if (last) return low_bit(beat);
        uint64_t out_s = out & led;
        uint64_t masters = out_s ? (beat & above(top_bit(out_s))) : beat;
        if (masters) return low_bit(masters);
        return low_bit(follow);
    }
    uint64_t ruffs = legal & tm;
    if (ruffs) {
        uint64_t winners = trumps_in ? (ruffs & above(cur)) : ruffs;
        if (winners) return low_bit(winners);
        uint64_t others = legal & ~tm;
        return others ? weakest(others, out) : low_bit(ruffs);
    }
    return weakest(legal, out);
}

static int choose(const TP *s, const Guide *g) {
    uint64_t legal = legal_for(s, s->hands[s->turn], s->trick, s->tlen, s->played);
    if (!(legal & (legal - 1))) return low_bit(legal);
    return g->take ? take(s, s->turn, legal, g) : avoid(s, s->turn, legal, g);
}

static void final_scores(const TP *s, const Model *m, const PairT *pairs, int np, long *fin) {
    long raw[MAXP];
    raw_scores(s, m, s->captured, s->winners, s->nwin, raw);
    for (int p = 0; p < s->players; p++) fin[p] = raw[p];
    for (int k = 0; k < np; k++) {
        long delta = pairs[k].m * (raw[pairs[k].a] - raw[pairs[k].b]);
        fin[pairs[k].a] += delta;
        fin[pairs[k].b] -= delta;
    }
}

/* ---- random numbers for playouts (splitmix64) ------------------------------------------- */

static uint64_t next_random(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int random_card(uint64_t legal, uint64_t *rng) {
    int count = __builtin_popcountll(legal);
    int k = (int)(((next_random(rng) >> 32) * (uint64_t)count) >> 32);
    while (k--) legal &= legal - 1;
    return low_bit(legal);
}

/* ---- Python functions ----------------------------------------------------------------- */

static PyObject *py_legal(PyObject *self, PyObject *arg) {
    TP s;
    if (unpack(arg, &s) < 0) return NULL;
    if (s.finished) return PyLong_FromLong(0);
    return PyLong_FromUnsignedLongLong(legal_for(&s, s.hands[s.turn], s.trick, s.tlen, s.played));
}

static PyObject *py_step(PyObject *self, PyObject *args) {
    PyObject *state;
    int card;
    if (!PyArg_ParseTuple(args, "Oi", &state, &card)) return NULL;
    TP s;
    if (unpack(state, &s) < 0) return NULL;
    if (s.finished || card < 0 || card > 51 ||
        !((legal_for(&s, s.hands[s.turn], s.trick, s.tlen, s.played) >> card) & 1)) {
        PyErr_SetString(PyExc_ValueError, "step takes a legal card of the seat to act in an unfinished state");
        return NULL;
    }
    play(&s, card);
    return pack(&s);
}

static PyObject *py_raw(PyObject *self, PyObject *args) {
    PyObject *state, *model;
    if (!PyArg_ParseTuple(args, "OO", &state, &model)) return NULL;
    TP s;
    Model m;
    if (unpack(state, &s) < 0 || unpack_model(model, &m) < 0) return NULL;
    long raw[MAXP];
    raw_scores(&s, &m, s.captured, s.winners, s.nwin, raw);
    PyObject *out = PyList_New(s.players);
    for (int p = 0; p < s.players; p++) PyList_SET_ITEM(out, p, PyLong_FromLong(raw[p]));
    return out;
}

static PyObject *py_playouts(PyObject *self, PyObject *args) {
    PyObject *state, *model, *pairs_o, *guide_o;
    Py_ssize_t count;
    unsigned long long seed;
    int record;
    if (!PyArg_ParseTuple(args, "OOOnKpO", &state, &model, &pairs_o, &count, &seed, &record, &guide_o)) return NULL;
    TP start;
    Model m;
    PairT pairs[32];
    Guide g;
    int np;
    if (unpack(state, &start) < 0 || unpack_model(model, &m) < 0 || unpack_pairs(pairs_o, pairs, &np, start.players) < 0)
        return NULL;
    int thumb = guide_o != Py_None;
    if (thumb && unpack_guide(guide_o, &g, start.tricks_total) < 0) return NULL;
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "the number of playouts must be 0 or more");
        return NULL;
    }
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    uint64_t rng = seed;
    int n = start.players;
    for (Py_ssize_t i = 0; i < count; i++) {
        TP s = start;
        int cards[MAXT * MAXP];
        int nc = 0;
        while (!s.finished) {
            uint64_t legal = legal_for(&s, s.hands[s.turn], s.trick, s.tlen, s.played);
            if (!legal) break; /* a state whose hands ran out before its last trick */
            int c = thumb ? choose(&s, &g) : random_card(legal, &rng);
            cards[nc++] = c;
            play(&s, c);
        }
        long fin[MAXP];
        final_scores(&s, &m, pairs, np, fin);
        PyObject *scores = PyTuple_New(n);
        if (!scores) goto fail;
        for (int p = 0; p < n; p++) {
            PyObject *x = PyLong_FromLong(fin[p]);
            if (!x) {
                Py_DECREF(scores);
                goto fail;
            }
            PyTuple_SET_ITEM(scores, p, x);
        }
        PyObject *item = scores;
        if (record) {
            PyObject *played = int_tuple(cards, nc);
            if (!played) {
                Py_DECREF(scores);
                goto fail;
            }
            item = Py_BuildValue("(NN)", scores, played); /* takes both references, even on failure */
            if (!item) goto fail;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* ---- the endgame solver: the same search as barbu.bots.endgame.solve ------------------------ */

typedef struct {
    TP s; /* rules, and the hands, captured and winners of the line being searched */
    Model m;
    double care[MAXP][MAXP];
    double sign;
    double cost[52];
    int root, n;
    int nxt[MAXP];
} Solver;

static void values(Solver *v, double *out) {
    long raw[MAXP];
    raw_scores(&v->s, &v->m, v->s.captured, v->s.winners, v->s.nwin, raw);
    for (int p = 0; p < v->n; p++) {
        double acc = 0.0;
        for (int q = 0; q < v->n; q++) acc += v->care[p][q] * (double)raw[q];
        out[p] = v->sign * acc;
    }
}

static int distinct(uint64_t legal, uint64_t gone, const double *cost, int *out) {
    int k = 0, prev = -1;
    while (legal) {
        int c = low_bit(legal);
        legal &= legal - 1;
        if (prev >= 0 && prev / 13 == c / 13 && cost[prev] == cost[c]) {
            uint64_t between = ((1ULL << c) - 1) & ~((2ULL << prev) - 1);
            if ((between & ~gone) == 0) {
                prev = c;
                continue;
            }
        }
        out[k++] = c;
        prev = c;
    }
    return k;
}

static void last_trick(Solver *v, int leader, double *out) {
    int now[MAXP];
    uint64_t mask = 0;
    int seat = leader;
    for (int i = 0; i < v->n; i++) {
        uint64_t hand = v->s.hands[seat];
        now[i] = hand ? top_bit(hand) : -1;
        mask |= hand;
        seat = v->nxt[seat];
    }
    int w = taker(&v->s, now, v->n, mask, leader);
    v->s.captured[w] |= mask;
    v->s.winners[v->s.nwin++] = w;
    values(v, out);
    v->s.nwin--;
    v->s.captured[w] ^= mask;
}

static void search(Solver *v, int seat, int leader, int *trick, int tlen, uint64_t in_trick, uint64_t played,
                   double *best) {
    uint64_t hand = v->s.hands[seat];
    uint64_t legal = legal_for(&v->s, hand, trick, tlen, played);
    int cards[52];
    int k;
    if (legal & (legal - 1))
        k = distinct(legal, played | hand, v->cost, cards);
    else {
        cards[0] = legal ? top_bit(legal) : -1;
        k = 1;
    }
    int have = 0;
    double val[MAXP];
    for (int i = 0; i < k; i++) {
        int c = cards[i];
        uint64_t bit = 1ULL << c;
        v->s.hands[seat] = hand ^ bit;
        trick[tlen] = c;
        uint64_t mask = in_trick | bit;
        if (tlen + 1 < v->n) {
            search(v, v->nxt[seat], leader, trick, tlen + 1, mask, played, val);
        } else {
            int w = taker(&v->s, trick, tlen + 1, mask, leader);
            v->s.captured[w] |= mask;
            v->s.winners[v->s.nwin++] = w;
            uint64_t after = played | mask;
            if (v->s.nwin == v->s.tricks_total || (v->s.early_end && (after & v->s.early_end) == v->s.early_end))
                values(v, val);
            else if (v->s.nwin == v->s.tricks_total - 1)
                last_trick(v, w, val);
            else {
                int next_trick[MAXP];
                search(v, w, w, next_trick, 0, 0, after, val);
            }
            v->s.nwin--;
            v->s.captured[w] ^= mask;
        }
        if (!have || val[seat] > best[seat] + 1e-9 || (val[seat] > best[seat] - 1e-9 && val[v->root] < best[v->root])) {
            memcpy(best, val, sizeof(double) * v->n);
            have = 1;
        }
    }
    v->s.hands[seat] = hand;
}

static int read_care(PyObject *care_o, int n, double care[MAXP][MAXP]) {
    if (!PyTuple_Check(care_o) || PyTuple_GET_SIZE(care_o) != n) goto bad;
    for (int p = 0; p < n; p++) {
        PyObject *row = PyTuple_GET_ITEM(care_o, p);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != n) goto bad;
        for (int q = 0; q < n; q++) {
            care[p][q] = PyFloat_AsDouble(PyTuple_GET_ITEM(row, q));
            if (PyErr_Occurred()) return -1;
        }
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "care is one tuple of floats per seat");
    return -1;
}

/* Each seat's value of s under perfect play (v's model, care, sign and cost set). */
static void solve_state(Solver *v, const TP *s, int root, double *out) {
    v->s = *s;
    v->n = s->players;
    v->root = root;
    for (int p = 0; p < v->n; p++) v->nxt[p] = next_seat(s, p);
    if (v->s.finished)
        values(v, out);
    else if (v->s.tlen == 0 && v->s.nwin == v->s.tricks_total - 1)
        last_trick(v, v->s.leader, out);
    else {
        int trick[MAXP];
        uint64_t in_trick = 0;
        for (int i = 0; i < v->s.tlen; i++) {
            trick[i] = v->s.trick[i];
            in_trick |= 1ULL << trick[i];
        }
        search(v, v->s.turn, v->s.leader, trick, v->s.tlen, in_trick, v->s.played, out);
    }
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *state, *model, *care_o, *cost_o;
    double sign;
    int root;
    if (!PyArg_ParseTuple(args, "OOOdOi", &state, &model, &care_o, &sign, &cost_o, &root)) return NULL;
    Solver v;
    TP s;
    memset(&v, 0, sizeof v);
    if (unpack(state, &s) < 0 || unpack_model(model, &v.m) < 0 || read_care(care_o, s.players, v.care) < 0) return NULL;
    if (root < 0 || root >= s.players) {
        PyErr_SetString(PyExc_ValueError, "root must be a seat of the state");
        return NULL;
    }
    if (!PyTuple_Check(cost_o) || PyTuple_GET_SIZE(cost_o) != 52) {
        PyErr_SetString(PyExc_ValueError, "cost is one float per card");
        return NULL;
    }
    for (int c = 0; c < 52; c++) {
        v.cost[c] = PyFloat_AsDouble(PyTuple_GET_ITEM(cost_o, c));
        if (PyErr_Occurred()) return NULL;
    }
    v.sign = sign;
    double out[MAXP];
    Py_BEGIN_ALLOW_THREADS
    solve_state(&v, &s, root, out);
    Py_END_ALLOW_THREADS
    PyObject *res = PyList_New(s.players);
    for (int p = 0; p < s.players; p++) PyList_SET_ITEM(res, p, PyFloat_FromDouble(out[p]));
    return res;
}

static PyObject *py_choose(PyObject *self, PyObject *args) {
    PyObject *state, *guide;
    if (!PyArg_ParseTuple(args, "OO", &state, &guide)) return NULL;
    TP s;
    Guide g;
    if (unpack(state, &s) < 0 || unpack_guide(guide, &g, s.tricks_total) < 0) return NULL;
    if (s.finished) {
        PyErr_SetString(PyExc_ValueError, "choose needs an unfinished state");
        return NULL;
    }
    return PyLong_FromLong(choose(&s, &g));
}

static PyObject *py_finish(PyObject *self, PyObject *args) {
    PyObject *state, *model, *pairs_o, *guide, *care_o;
    double sign;
    int endgame, me;
    if (!PyArg_ParseTuple(args, "OOOOOdii", &state, &model, &pairs_o, &guide, &care_o, &sign, &endgame, &me))
        return NULL;
    TP s;
    Guide g;
    Solver v;
    PairT pairs[32];
    int np;
    memset(&v, 0, sizeof v);
    if (unpack(state, &s) < 0 || unpack_model(model, &v.m) < 0 || unpack_pairs(pairs_o, pairs, &np, s.players) < 0 ||
        unpack_guide(guide, &g, s.tricks_total) < 0 || read_care(care_o, s.players, v.care) < 0)
        return NULL;
    if (me < 0 || me >= s.players) {
        PyErr_SetString(PyExc_ValueError, "me must be a seat of the state");
        return NULL;
    }
    memcpy(v.cost, g.cost, sizeof v.cost);
    v.sign = sign;
    double value;
    Py_BEGIN_ALLOW_THREADS
    value = 0.0;
    int solved = 0;
    while (!s.finished) {
        if (endgame && s.tricks_total - s.nwin <= endgame) {
            double out[MAXP];
            solve_state(&v, &s, me, out);
            value = out[me];
            solved = 1;
            break;
        }
        play(&s, choose(&s, &g));
    }
    if (!solved) {
        long fin[MAXP];
        final_scores(&s, &v.m, pairs, np, fin);
        value = sign * (double)fin[me];
    }
    Py_END_ALLOW_THREADS
    return PyFloat_FromDouble(value);
}

/* ---- TrickCore: barbu.tricks.TrickPlay's state and hot path as one C type ---------------
 *
 * The Python-driven fast door plays one card at a time; this type makes each card one C
 * call. Its fields are those of the pure TrickPlay, and hands, trick, captured and winners
 * stay Python lists (the source of truth, as in the pure class): callers may read them
 * and replace them as before. legal_mask and play repeat TrickPlay's facts through the
 * kernels above (legal_for, taker); the rules are read once from the TrickRules value.
 */

typedef struct {
    PyObject_HEAD
    PyObject *hands, *trick, *captured, *winners, *rules;
    int players, tricks_total, leader, turn;
    char finished;
    unsigned long long played;
    long long legal;
    TP r; /* the rules' fields only: players, direction, trump, heart rule, penalty, ... */
} TrickCore;

static int core_read_rules(TrickCore *self, PyObject *rules) {
    static const char *names[] = {"trump", "direction", "heart_lead", "penalty", "early_end",
                                  "must_trump_when_void", "overtrump_required", "undertrump_required"};
    PyObject *v[8] = {NULL};
    int ok = -1;
    for (int i = 0; i < 8; i++)
        if (!(v[i] = PyObject_GetAttrString(rules, names[i]))) goto done;
    TP r;
    memset(&r, 0, sizeof r);
    if (v[0] == Py_None)
        r.trump = -1;
    else {
        long t = PyLong_AsLong(v[0]);
        if (t == -1 && PyErr_Occurred()) goto done;
        if (t < 0 || t > 3) goto bad;
        r.trump = (int)t;
    }
    long d = PyLong_AsLong(v[1]);
    if (d == -1 && PyErr_Occurred()) goto done;
    if (d != 1 && d != -1) goto bad;
    r.direction = (int)d;
    if (!PyUnicode_Check(v[2])) goto bad;
    if (PyUnicode_CompareWithASCIIString(v[2], "free") == 0)
        r.heart_rule = 0;
    else if (PyUnicode_CompareWithASCIIString(v[2], "broken") == 0)
        r.heart_rule = r.heart_broken = 1;
    else if (PyUnicode_CompareWithASCIIString(v[2], "strict") == 0)
        r.heart_rule = 1;
    else
        goto bad;
    if (get_mask(v[3], &r.penalty) < 0 || get_mask(v[4], &r.early_end) < 0) goto done;
    int flags[3];
    for (int i = 0; i < 3; i++)
        if ((flags[i] = PyObject_IsTrue(v[5 + i])) < 0) goto done;
    r.must_trump = flags[0];
    r.overtrump = flags[1];
    r.undertrump = flags[2];
    r.players = self->r.players;
    self->r = r;
    Py_INCREF(rules);
    Py_XSETREF(self->rules, rules);
    ok = 0;
    goto done;
bad:
    PyErr_SetString(PyExc_ValueError,
                    "trick rules need a trump of None or 0-3, a direction of 1 or -1 and a heart lead of "
                    "free, strict or broken");
done:
    for (int i = 0; i < 8; i++) Py_XDECREF(v[i]);
    return ok;
}

static int core_bad_state(void) {
    PyErr_SetString(PyExc_ValueError,
                    "a trick play needs 2 to 6 seats, list fields of one entry per seat, the seat to act "
                    "in range and cards 0 to 51");
    return -1;
}

/* The cards of the current trick, read from the list. */
static int core_trick(TrickCore *self, int *trick, int *tlen) {
    PyObject *t = self->trick;
    if (!t || !PyList_Check(t) || PyList_GET_SIZE(t) >= self->players) return core_bad_state();
    *tlen = (int)PyList_GET_SIZE(t);
    for (int i = 0; i < *tlen; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(t, i));
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c > 51) return core_bad_state();
        trick[i] = (int)c;
    }
    return 0;
}

static int core_seat_list(PyObject *list, int players) {
    return list && PyList_Check(list) && PyList_GET_SIZE(list) == players ? 0 : core_bad_state();
}

static int core_turn(TrickCore *self) {
    if (self->players < 2 || self->players > MAXP || self->turn < 0 || self->turn >= self->players ||
        core_seat_list(self->hands, self->players) < 0)
        return core_bad_state();
    return 0;
}

static int core_init(TrickCore *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"hands", "leader", "rules", NULL};
    PyObject *hands, *rules;
    int leader;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiO", kw, &hands, &leader, &rules)) return -1;
    PyObject *list = PySequence_List(hands);
    if (!list) return -1;
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n < 2 || n > MAXP || leader < 0 || leader >= n) {
        Py_DECREF(list);
        return core_bad_state();
    }
    uint64_t first;
    if (get_u64(PyList_GET_ITEM(list, 0), &first) < 0) {
        Py_DECREF(list);
        return -1;
    }
    PyObject *captured = PyList_New(n), *trick = PyList_New(0), *winners = PyList_New(0);
    if (!captured || !trick || !winners) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *zero = PyLong_FromLong(0);
        if (!zero) goto fail;
        PyList_SET_ITEM(captured, i, zero);
    }
    self->players = self->r.players = (int)n;
    if (core_read_rules(self, rules) < 0) goto fail;
    Py_XSETREF(self->hands, list);
    Py_XSETREF(self->captured, captured);
    Py_XSETREF(self->trick, trick);
    Py_XSETREF(self->winners, winners);
    self->tricks_total = __builtin_popcountll(first);
    self->leader = self->turn = leader;
    self->played = 0;
    self->finished = 0;
    self->legal = -1;
    return 0;
fail:
    Py_DECREF(list);
    Py_XDECREF(captured);
    Py_XDECREF(trick);
    Py_XDECREF(winners);
    return -1;
}

static int core_traverse(TrickCore *self, visitproc visit, void *arg) {
    Py_VISIT(self->hands);
    Py_VISIT(self->trick);
    Py_VISIT(self->captured);
    Py_VISIT(self->winners);
    Py_VISIT(self->rules);
    return 0;
}

static int core_clear(TrickCore *self) {
    Py_CLEAR(self->hands);
    Py_CLEAR(self->trick);
    Py_CLEAR(self->captured);
    Py_CLEAR(self->winners);
    Py_CLEAR(self->rules);
    return 0;
}

static void core_dealloc(TrickCore *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    core_clear(self);
    tp->tp_free((PyObject *)self); /* a Python subclass's dealloc releases its type itself */
}

static int core_legal(TrickCore *self) {
    if (self->legal < 0) {
        int trick[MAXP], tlen;
        uint64_t hand;
        if (core_turn(self) < 0 || core_trick(self, trick, &tlen) < 0 ||
            get_u64(PyList_GET_ITEM(self->hands, self->turn), &hand) < 0)
            return -1;
        self->legal = (long long)legal_for(&self->r, hand, trick, tlen, self->played);
    }
    return 0;
}

static PyObject *core_legal_mask(TrickCore *self, PyObject *unused) {
    if (core_legal(self) < 0) return NULL;
    return PyLong_FromLongLong(self->legal);
}

static int list_or(PyObject *list, int i, uint64_t bits, int clear) {
    uint64_t m;
    if (get_u64(PyList_GET_ITEM(list, i), &m) < 0) return -1;
    PyObject *v = PyLong_FromUnsignedLongLong(clear ? (m & ~bits) : (m | bits));
    if (!v) return -1;
    return PyList_SetItem(list, i, v);
}

static PyObject *core_play(TrickCore *self, PyObject *arg) {
    long card = PyLong_AsLong(arg);
    if (card == -1 && PyErr_Occurred()) return NULL;
    int trick[MAXP], tlen;
    if (card < 0 || card > 51 || core_turn(self) < 0 || core_trick(self, trick, &tlen) < 0) {
        if (!PyErr_Occurred()) core_bad_state();
        return NULL;
    }
    self->legal = -1;
    int seat = self->turn;
    if (list_or(self->hands, seat, 1ULL << card, 1) < 0 || PyList_Append(self->trick, arg) < 0) return NULL;
    trick[tlen++] = (int)card;
    if (tlen < self->players) {
        self->turn = next_seat(&self->r, seat);
        Py_RETURN_NONE;
    }
    uint64_t mask = 0;
    for (int i = 0; i < tlen; i++) mask |= 1ULL << trick[i];
    int w = taker(&self->r, trick, tlen, mask, self->leader);
    if (core_seat_list(self->captured, self->players) < 0 || !PyList_Check(self->winners) ||
        list_or(self->captured, w, mask, 0) < 0)
        return NULL;
    PyObject *wo = PyLong_FromLong(w), *fresh = PyList_New(0);
    if (!wo || !fresh || PyList_Append(self->winners, wo) < 0) {
        Py_XDECREF(wo);
        Py_XDECREF(fresh);
        return NULL;
    }
    Py_DECREF(wo);
    Py_SETREF(self->trick, fresh);
    self->played |= mask;
    self->leader = self->turn = w;
    uint64_t early = self->r.early_end;
    if (PyList_GET_SIZE(self->winners) == self->tricks_total || (early && (self->played & early) == early))
        self->finished = 1;
    Py_RETURN_NONE;
}

/* play_logged(card, seat, cards, seats): PureTrickPlay.play_logged, the checked door's card. */
static PyObject *core_play_logged(TrickCore *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyList_Check(args[2]) || !PyList_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "play_logged(card, seat, cards, seats) takes two lists to log into");
        return NULL;
    }
    PyObject *card = args[0], *seat = args[1];
    if (!PyLong_CheckExact(card)) Py_RETURN_NONE;
    int overflow;
    long c = PyLong_AsLongAndOverflow(card, &overflow);
    if (overflow || c < 0 || c > 51) Py_RETURN_NONE;
    if (core_turn(self) < 0) return NULL;
    PyObject *turn = PyLong_FromLong(self->turn);
    if (!turn) return NULL;
    if (seat != Py_None) {
        int eq = PyObject_RichCompareBool(seat, turn, Py_EQ);
        if (eq <= 0) {
            Py_DECREF(turn);
            if (eq < 0) return NULL;
            Py_RETURN_NONE;
        }
    }
    if (core_legal(self) < 0) {
        Py_DECREF(turn);
        return NULL;
    }
    if (!((uint64_t)self->legal >> c & 1)) {
        Py_DECREF(turn);
        Py_RETURN_NONE;
    }
    if (PyList_Append(args[2], card) < 0 || PyList_Append(args[3], turn) < 0) {
        Py_DECREF(turn);
        return NULL;
    }
    PyObject *r = core_play(self, card);
    if (!r) {
        Py_DECREF(turn);
        return NULL;
    }
    Py_DECREF(r);
    return turn;
}

static PyObject *core_copy(TrickCore *self, PyObject *unused) {
    PyTypeObject *tp = Py_TYPE(self);
    TrickCore *o = (TrickCore *)tp->tp_alloc(tp, 0);
    if (!o) return NULL;
    o->hands = PySequence_List(self->hands);
    o->trick = PySequence_List(self->trick);
    o->captured = PySequence_List(self->captured);
    o->winners = PySequence_List(self->winners);
    if (!o->hands || !o->trick || !o->captured || !o->winners) {
        Py_DECREF(o);
        return NULL;
    }
    Py_XINCREF(self->rules);
    o->rules = self->rules;
    o->players = self->players;
    o->tricks_total = self->tricks_total;
    o->leader = self->leader;
    o->turn = self->turn;
    o->finished = self->finished;
    o->played = self->played;
    o->legal = self->legal;
    o->r = self->r;
    return (PyObject *)o;
}

static PyObject *core_set_hands(TrickCore *self, PyObject *hands) {
    PyObject *list = PySequence_List(hands);
    if (!list) return NULL;
    Py_XSETREF(self->hands, list);
    self->legal = -1;
    Py_RETURN_NONE;
}

static PyObject *core_get_rules(TrickCore *self, void *closure) {
    if (!self->rules) Py_RETURN_NONE;
    Py_INCREF(self->rules);
    return self->rules;
}

static int core_set_rules(TrickCore *self, PyObject *value, void *closure) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "a trick play's rules cannot be deleted");
        return -1;
    }
    return core_read_rules(self, value);
}

static PyObject *core_get_players(TrickCore *self, void *closure) { return PyLong_FromLong(self->players); }

static int core_set_players(TrickCore *self, PyObject *value, void *closure) {
    long n = value ? PyLong_AsLong(value) : -1;
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n < 2 || n > MAXP) return core_bad_state();
    self->players = self->r.players = (int)n;
    return 0;
}

/* ---- play_next: the fast door's card and the next legal mask in one call (TrickCore) ---- */

static PyObject *core_play_next(TrickCore *self, PyObject *arg) {
    PyObject *r = core_play(self, arg);
    if (!r) return NULL;
    Py_DECREF(r);
    if (self->finished) return PyLong_FromLong(-1);
    if (core_legal(self) < 0) return NULL;
    return PyLong_FromLongLong(self->legal);
}

/* ---- end of play_next (TrickCore) ---- */

static PyMethodDef core_methods[] = {
    {"legal_mask", (PyCFunction)core_legal_mask, METH_NOARGS,
     "legal_mask() -> the mask of the cards the seat to act may play (RULES.md 2.9.1)"},
    {"play", (PyCFunction)core_play, METH_O, "play(card) -> play card for the seat to act, unchecked"},
    {"play_logged", (PyCFunction)(void (*)(void))core_play_logged, METH_FASTCALL,
     "play_logged(card, seat, cards, seats) -> the seat that played card if it was legal, else None"},
    {"copy", (PyCFunction)core_copy, METH_NOARGS, "copy() -> an independent copy, cheap enough for search"},
    {"set_hands", (PyCFunction)core_set_hands, METH_O,
     "set_hands(hands) -> give the seats other cards, as many each as they hold now; unchecked"},
    {"play_next", (PyCFunction)core_play_next, METH_O,
     "play_next(card) -> play card unchecked; the next legal mask, or -1 once the play is over"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef core_members[] = {
    {"hands", T_OBJECT_EX, offsetof(TrickCore, hands), 0, "each seat's cards, as masks"},
    {"trick", T_OBJECT_EX, offsetof(TrickCore, trick), 0, "the cards of the current trick, in order"},
    {"captured", T_OBJECT_EX, offsetof(TrickCore, captured), 0, "each seat's captured cards, as masks"},
    {"winners", T_OBJECT_EX, offsetof(TrickCore, winners), 0, "the winner of each trick so far"},
    {"tricks_total", T_INT, offsetof(TrickCore, tricks_total), 0, "the tricks of the deal"},
    {"leader", T_INT, offsetof(TrickCore, leader), 0, "the seat that led the current trick"},
    {"turn", T_INT, offsetof(TrickCore, turn), 0, "the seat to act"},
    {"finished", T_BOOL, offsetof(TrickCore, finished), 0, "True once the play is over"},
    {"played", T_ULONGLONG, offsetof(TrickCore, played), 0, "the cards of the finished tricks"},
    {"_legal", T_LONGLONG, offsetof(TrickCore, legal), 0, "the cached legal mask (-1: not computed)"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef core_getset[] = {
    {"rules", (getter)core_get_rules, (setter)core_set_rules, "the deal's TrickRules", NULL},
    {"players", (getter)core_get_players, (setter)core_set_players, "the number of seats", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TrickCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "barbu._native.TrickCore",
    .tp_basicsize = sizeof(TrickCore),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The state and hot path of barbu.tricks.TrickPlay in compiled code (see barbu.tricks).",
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_traverse = (traverseproc)core_traverse,
    .tp_clear = (inquiry)core_clear,
    .tp_methods = core_methods,
    .tp_members = core_members,
    .tp_getset = core_getset,
};

/* ---- DominoCore: barbu.domino.DominoPlay's state and hot path as one C type -------------
 *
 * The same arrangement as TrickCore: the fields are those of the pure DominoPlay (hands and
 * order stay Python lists), and legal_mask, play and copy repeat its facts: rows grow one
 * card at a time from the rank R in each suit, without wrap-around, from low_rank to the ace.
 */

typedef struct {
    PyObject_HEAD
    PyObject *hands, *order;
    int players, direction, low_rank, turn, rank; /* rank -1: not named yet (first card opens) */
    char ace_replays, finished;
    unsigned long long removed, laid, playable;
} DominoCore;

static uint64_t dom_ends(const DominoCore *d, int suit) {
    int r = d->rank;
    uint64_t bits = (d->laid >> (13 * suit)) & 0x1FFF;
    if (!(bits >> r & 1)) return 1ULL << (13 * suit + r);
    int lo = r, hi = r;
    while (lo - 1 >= d->low_rank && (bits >> (lo - 1) & 1)) lo--;
    while (hi + 1 <= 12 && (bits >> (hi + 1) & 1)) hi++;
    uint64_t mask = 0;
    if (lo - 1 >= d->low_rank) mask |= 1ULL << (13 * suit + lo - 1);
    if (hi + 1 <= 12) mask |= 1ULL << (13 * suit + hi + 1);
    return mask;
}

static void dom_start_rows(DominoCore *d, int rank) {
    d->rank = rank;
    d->playable = 0;
    for (int s = 0; s < 4; s++) d->playable |= dom_ends(d, s);
}

static int dom_bad_state(void) {
    PyErr_SetString(PyExc_ValueError,
                    "a domino play needs 2 to 6 seats, one hand per seat, the seat to act in range, a rank "
                    "of 0-12 or None, a direction of 1 or -1 and cards 0 to 51");
    return -1;
}

static int dom_check(DominoCore *d) {
    if (d->players < 2 || d->players > MAXP || d->turn < 0 || d->turn >= d->players || d->rank < -1 ||
        d->rank > 12 || d->low_rank < 0 || d->low_rank > 12 || (d->direction != 1 && d->direction != -1) ||
        !d->hands || !PyList_Check(d->hands) || PyList_GET_SIZE(d->hands) != d->players || !d->order ||
        !PyList_Check(d->order))
        return dom_bad_state();
    return 0;
}

static int dom_init(DominoCore *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"hands", "leader", "rank", "direction", "low_rank", "removed", "ace_replays", "openers",
                         NULL};
    PyObject *hands, *rank_o, *removed_o = NULL, *openers_o = NULL;
    int leader, direction = 1, low_rank = 0, ace_replays = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiO|$iiOpO", kw, &hands, &leader, &rank_o, &direction,
                                     &low_rank, &removed_o, &ace_replays, &openers_o))
        return -1;
    uint64_t removed = 0, openers = (1ULL << 52) - 1;
    if ((removed_o && get_mask(removed_o, &removed) < 0) || (openers_o && get_mask(openers_o, &openers) < 0))
        return -1;
    long rank = -1;
    if (rank_o != Py_None) {
        rank = PyLong_AsLong(rank_o);
        if (rank == -1 && PyErr_Occurred()) return -1;
        if (rank < 0 || rank > 12) return dom_bad_state();
    }
    PyObject *list = PySequence_List(hands), *order = PyList_New(0);
    if (!list || !order) {
        Py_XDECREF(list);
        Py_XDECREF(order);
        return -1;
    }
    Py_XSETREF(self->hands, list);
    Py_XSETREF(self->order, order);
    self->players = (int)PyList_GET_SIZE(list);
    self->direction = direction;
    self->rank = (int)rank;
    self->low_rank = low_rank;
    self->removed = self->laid = removed;
    self->ace_replays = (char)ace_replays;
    self->turn = leader;
    self->finished = 0;
    self->playable = openers;
    if (dom_check(self) < 0) return -1;
    if (rank >= 0) dom_start_rows(self, (int)rank);
    return 0;
}

static int dom_traverse(DominoCore *self, visitproc visit, void *arg) {
    Py_VISIT(self->hands);
    Py_VISIT(self->order);
    return 0;
}

static int dom_clear(DominoCore *self) {
    Py_CLEAR(self->hands);
    Py_CLEAR(self->order);
    return 0;
}

static void dom_dealloc(DominoCore *self) {
    PyObject_GC_UnTrack(self);
    dom_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self); /* a Python subclass's dealloc releases its type itself */
}

static int dom_hand(DominoCore *d, int seat, uint64_t *hand) {
    return get_u64(PyList_GET_ITEM(d->hands, seat), hand);
}

static PyObject *dom_legal_mask(DominoCore *self, PyObject *unused) {
    uint64_t hand;
    if (dom_check(self) < 0 || dom_hand(self, self->turn, &hand) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(hand & self->playable);
}

static int dom_in_order(DominoCore *d, int seat) {
    Py_ssize_t n = PyList_GET_SIZE(d->order);
    for (Py_ssize_t i = 0; i < n; i++) {
        long s = PyLong_AsLong(PyList_GET_ITEM(d->order, i));
        if (s == -1 && PyErr_Occurred()) return -1;
        if (s == seat) return 1;
    }
    return 0;
}

static int dom_append_seat(DominoCore *d, int seat) {
    PyObject *v = PyLong_FromLong(seat);
    if (!v) return -1;
    int r = PyList_Append(d->order, v);
    Py_DECREF(v);
    return r;
}

static PyObject *dom_play(DominoCore *self, PyObject *arg) {
    if (dom_check(self) < 0) return NULL;
    int seat = self->turn;
    if (arg != Py_None) {
        long card = PyLong_AsLong(arg);
        if (card == -1 && PyErr_Occurred()) return NULL;
        if (card < 0 || card > 51) return dom_bad_state(), NULL;
        uint64_t hand;
        if (dom_hand(self, seat, &hand) < 0) return NULL;
        hand &= ~(1ULL << card);
        PyObject *h = PyLong_FromUnsignedLongLong(hand);
        if (!h || PyList_SetItem(self->hands, seat, h) < 0) return NULL;
        self->laid |= 1ULL << card;
        if (self->rank < 0)
            dom_start_rows(self, (int)(card % 13));
        else {
            int suit = (int)(card / 13);
            self->playable = (self->playable & ~(0x1FFFULL << (13 * suit))) | dom_ends(self, suit);
        }
        if (!hand) {
            if (dom_append_seat(self, seat) < 0) return NULL;
            if (PyList_GET_SIZE(self->order) == self->players - 1) {
                for (int s = 0; s < self->players; s++) {
                    int in = dom_in_order(self, s);
                    if (in < 0) return NULL;
                    if (!in) {
                        if (dom_append_seat(self, s) < 0) return NULL;
                        break;
                    }
                }
                self->finished = 1;
                Py_RETURN_NONE;
            }
        } else if (self->ace_replays && card % 13 == 12) {
            uint64_t again;
            if (dom_hand(self, self->turn, &again) < 0) return NULL;
            if (again & self->playable) Py_RETURN_NONE;
        }
    }
    int n = self->players, nxt = seat;
    for (int i = 0; i < n; i++) {
        nxt = ((nxt + self->direction) % n + n) % n;
        int in = dom_in_order(self, nxt);
        if (in < 0) return NULL;
        if (!in) break;
    }
    self->turn = nxt;
    Py_RETURN_NONE;
}

static PyObject *dom_copy(DominoCore *self, PyObject *unused) {
    PyTypeObject *tp = Py_TYPE(self);
    DominoCore *o = (DominoCore *)tp->tp_alloc(tp, 0);
    if (!o) return NULL;
    o->hands = PySequence_List(self->hands);
    o->order = PySequence_List(self->order);
    if (!o->hands || !o->order) {
        Py_DECREF(o);
        return NULL;
    }
    o->players = self->players;
    o->direction = self->direction;
    o->low_rank = self->low_rank;
    o->turn = self->turn;
    o->rank = self->rank;
    o->ace_replays = self->ace_replays;
    o->finished = self->finished;
    o->removed = self->removed;
    o->laid = self->laid;
    o->playable = self->playable;
    return (PyObject *)o;
}

static PyObject *dom_set_hands(DominoCore *self, PyObject *hands) {
    PyObject *list = PySequence_List(hands);
    if (!list) return NULL;
    Py_XSETREF(self->hands, list);
    Py_RETURN_NONE;
}

static PyObject *dom_get_rank(DominoCore *self, void *closure) {
    if (self->rank < 0) Py_RETURN_NONE;
    return PyLong_FromLong(self->rank);
}

static int dom_set_rank(DominoCore *self, PyObject *value, void *closure) {
    if (!value || value == Py_None) {
        self->rank = -1;
        return 0;
    }
    long r = PyLong_AsLong(value);
    if (r == -1 && PyErr_Occurred()) return -1;
    if (r < 0 || r > 12) return dom_bad_state();
    self->rank = (int)r;
    return 0;
}

/* ---- play_next: the fast door's lay or pass and the next legal mask in one call (DominoCore) ---- */

static PyObject *dom_play_next(DominoCore *self, PyObject *arg) {
    PyObject *r = dom_play(self, arg);
    if (!r) return NULL;
    Py_DECREF(r);
    if (self->finished) return PyLong_FromLong(-1);
    return dom_legal_mask(self, NULL);
}

/* ---- end of play_next (DominoCore) ---- */

static PyMethodDef dom_methods[] = {
    {"legal_mask", (PyCFunction)dom_legal_mask, METH_NOARGS, "legal_mask() -> the cards the seat to act may lay (0: it must pass)"},
    {"play", (PyCFunction)dom_play, METH_O, "play(card) -> lay card for the seat to act, or pass with None; unchecked"},
    {"copy", (PyCFunction)dom_copy, METH_NOARGS, "copy() -> an independent copy"},
    {"set_hands", (PyCFunction)dom_set_hands, METH_O,
     "set_hands(hands) -> give the seats other cards, as many each as they hold now; unchecked"},
    {"play_next", (PyCFunction)dom_play_next, METH_O,
     "play_next(card) -> lay card (None: pass) unchecked; the next legal mask, or -1 once the play is over"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef dom_members[] = {
    {"hands", T_OBJECT_EX, offsetof(DominoCore, hands), 0, "each seat's cards, as masks"},
    {"order", T_OBJECT_EX, offsetof(DominoCore, order), 0, "the seats out so far, in order"},
    {"players", T_INT, offsetof(DominoCore, players), 0, "the number of seats"},
    {"direction", T_INT, offsetof(DominoCore, direction), 0, "+1 clockwise, -1 anticlockwise"},
    {"low_rank", T_INT, offsetof(DominoCore, low_rank), 0, "the lowest rank of the deck"},
    {"turn", T_INT, offsetof(DominoCore, turn), 0, "the seat to act"},
    {"ace_replays", T_BOOL, offsetof(DominoCore, ace_replays), 0, "whether laying an ace plays again"},
    {"finished", T_BOOL, offsetof(DominoCore, finished), 0, "True once the play is over"},
    {"removed", T_ULONGLONG, offsetof(DominoCore, removed), 0, "the cards counted as laid from the start"},
    {"laid", T_ULONGLONG, offsetof(DominoCore, laid), 0, "the cards laid (removed ones included)"},
    {"_playable", T_ULONGLONG, offsetof(DominoCore, playable), 0, "every card that could be laid now"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef dom_getset[] = {
    {"rank", (getter)dom_get_rank, (setter)dom_set_rank, "the starting rank R, or None before the first card",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject DominoCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "barbu._native.DominoCore",
    .tp_basicsize = sizeof(DominoCore),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The state and hot path of barbu.domino.DominoPlay in compiled code (see barbu.domino).",
    .tp_new = PyType_GenericNew,
    .tp_free = PyObject_GC_Del,
    .tp_init = (initproc)dom_init,
    .tp_dealloc = (destructor)dom_dealloc,
    .tp_traverse = (traverseproc)dom_traverse,
    .tp_clear = (inquiry)dom_clear,
    .tp_methods = dom_methods,
    .tp_members = dom_members,
    .tp_getset = dom_getset,
};

/* pick(table, mask) -> [table[c] for each set bit c of mask, ascending]: the legal actions of a mask. */
/* ---- the batch simulator's card play: N deals stepped together into NumPy buffers ------------ */

/* barbu.research.batch.BatchEnv's games in trick play, one compiled state each: step() plays one
 * card per active game and writes each game's observation row, legal mask, seat to act, rewards
 * and done flag straight into the caller's arrays, as BatchEnv's pure path computes them. */
typedef struct {
    PyObject_HEAD
    int n, players, obs_size, actions, tricks_per_deal;
    double sign, unit;
    Model m;
    TP *s;
    unsigned char *active;
    PairT *pairs; /* 32 per game */
    int *npairs;
    float *pairmat; /* players * players per game: multiplier / 2 by (doubler, doubled) */
    PyObject *model; /* the score model tuple, for pickling */
} TrickBatch;

static void batch_dealloc(TrickBatch *self) {
    Py_XDECREF(self->model);
    PyMem_Free(self->s);
    PyMem_Free(self->active);
    PyMem_Free(self->pairs);
    PyMem_Free(self->npairs);
    PyMem_Free(self->pairmat);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int batch_init(TrickBatch *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"n", "players", "model", "actions", "tricks_per_deal", "sign", "unit", NULL};
    int n, players, actions, tpd;
    PyObject *model;
    double sign, unit;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOiidd", kw, &n, &players, &model, &actions, &tpd, &sign, &unit))
        return -1;
    if (n < 1 || players < 2 || players > MAXP || actions < 52 || tpd < 1 || tpd > MAXT || unit == 0.0) {
        PyErr_SetString(PyExc_ValueError, "a batch needs 1 or more games of 2 to 6 seats, 52 or more actions, "
                                          "1 to 26 tricks and a non-zero unit");
        return -1;
    }
    if (unpack_model(model, &self->m) < 0) return -1;
    Py_XSETREF(self->model, Py_NewRef(model));
    PyMem_Free(self->s);
    PyMem_Free(self->active);
    PyMem_Free(self->pairs);
    PyMem_Free(self->npairs);
    PyMem_Free(self->pairmat);
    self->s = PyMem_Calloc((size_t)n, sizeof(TP));
    self->active = PyMem_Calloc((size_t)n, 1);
    self->pairs = PyMem_Calloc((size_t)n * 32, sizeof(PairT));
    self->npairs = PyMem_Calloc((size_t)n, sizeof(int));
    self->pairmat = PyMem_Calloc((size_t)n * players * players, sizeof(float));
    if (!self->s || !self->active || !self->pairs || !self->npairs || !self->pairmat) {
        PyErr_NoMemory();
        return -1;
    }
    self->n = n;
    self->players = players;
    self->actions = actions;
    self->tricks_per_deal = tpd;
    self->obs_size = 52 + (players - 1) * 52 + 52 + players + players * players + 2;
    self->sign = sign;
    self->unit = unit;
    return 0;
}

/* A writable C-contiguous buffer of `count` items of `size` bytes whose format is one of `formats`. */
static int batch_buffer(PyObject *o, Py_buffer *b, Py_ssize_t count, Py_ssize_t size, const char *formats,
                        const char *what) {
    if (PyObject_GetBuffer(o, b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *f = b->format ? b->format : "B";
    if (*f == '@' || *f == '=' || *f == '<') f++;
    if (b->itemsize != size || b->len != count * size || f[0] == 0 || f[1] != 0 || !strchr(formats, f[0])) {
        PyErr_Format(PyExc_ValueError, "%s must be a writable C-contiguous array of %zd items of %zd bytes", what,
                     count, size);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

static PyObject *batch_load(TrickBatch *self, PyObject *args) {
    int i;
    PyObject *state, *pairs;
    if (!PyArg_ParseTuple(args, "iOO", &i, &state, &pairs)) return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_ValueError, "load: the game index is out of range");
        return NULL;
    }
    TP s;
    PairT pt[32];
    int np;
    if (unpack(state, &s) < 0 || unpack_pairs(pairs, pt, &np, s.players) < 0) return NULL;
    if (s.players != self->players || s.finished || s.tricks_total != self->tricks_per_deal) {
        PyErr_SetString(PyExc_ValueError, "load takes an unfinished trick play of the batch's seats and tricks");
        return NULL;
    }
    int p = self->players;
    self->s[i] = s;
    memcpy(self->pairs + 32 * (size_t)i, pt, sizeof(PairT) * (size_t)np);
    self->npairs[i] = np;
    float *mat = self->pairmat + (size_t)i * p * p;
    for (int k = 0; k < p * p; k++) mat[k] = 0.0f;
    for (int k = 0; k < np; k++) mat[pt[k].a * p + pt[k].b] = (float)((double)pt[k].m / 2.0);
    self->active[i] = 1;
    Py_RETURN_NONE;
}

static void batch_row(TrickBatch *self, int i, float *obs, unsigned char *mask, int64_t *to_act) {
    const TP *s = &self->s[i];
    int p = self->players, seat = s->turn;
    float *row = obs + (size_t)i * self->obs_size;
    unsigned char *mrow = mask + (size_t)i * self->actions;
    memset(row, 0, sizeof(float) * (size_t)self->obs_size);
    memset(mrow, 0, (size_t)self->actions);
    uint64_t h = s->hands[seat];
    while (h) {
        int c = low_bit(h);
        h &= h - 1;
        row[c] = 1.0f;
    }
    uint64_t in_trick = 0;
    for (int k = 0; k < s->tlen; k++) {
        int slot = ((k - s->tlen) % p + p) % p - 1;
        row[52 + 52 * slot + s->trick[k]] = 1.0f;
        in_trick |= 1ULL << s->trick[k];
    }
    uint64_t played = s->played & ~in_trick;
    float *pl = row + 52 * p;
    while (played) {
        int c = low_bit(played);
        played &= played - 1;
        pl[c] = 1.0f;
    }
    float won[MAXP] = {0};
    for (int k = 0; k < s->nwin; k++) won[((s->winners[k] - seat) % p + p) % p] += 1.0f;
    float *wr = row + 52 * (p + 1);
    for (int k = 0; k < p; k++) wr[k] = won[k] / (float)self->tricks_per_deal;
    float *pr = wr + p;
    const float *mat = self->pairmat + (size_t)i * p * p;
    for (int a = 0; a < p; a++)
        for (int b = 0; b < p; b++) pr[a * p + b] = mat[((a + seat) % p) * p + (b + seat) % p];
    pr[p * p] = 0.0f;
    pr[p * p + 1] = 1.0f;
    uint64_t legal = legal_for(s, s->hands[seat], s->trick, s->tlen, s->played);
    while (legal) {
        int c = low_bit(legal);
        legal &= legal - 1;
        mrow[c] = 1;
    }
    to_act[i] = seat;
}

/* step(actions, obs, masks, rewards, done, to_act) -> the list of the games that finished.
 * Plays actions[i] in every active game i (a legal card, else ValueError before any game moves),
 * then writes the rows of the games still in play; a finished game's rewards are written, its
 * done flag set and it leaves the batch (the caller deals the next one). Inactive games'
 * rows are left to the caller. */
static PyObject *batch_step(TrickBatch *self, PyObject *args) {
    PyObject *ao, *oo, *mo, *ro, *dono, *to;
    if (!PyArg_ParseTuple(args, "OOOOOO", &ao, &oo, &mo, &ro, &dono, &to)) return NULL;
    int n = self->n, p = self->players;
    Py_buffer a, o, mk, r, d, t;
    if (batch_buffer(ao, &a, n, 8, "qlQL", "actions") < 0) return NULL;
    if (batch_buffer(oo, &o, (Py_ssize_t)n * self->obs_size, 4, "f", "observations") < 0) goto f1;
    if (batch_buffer(mo, &mk, (Py_ssize_t)n * self->actions, 1, "?bB", "masks") < 0) goto f2;
    if (batch_buffer(ro, &r, (Py_ssize_t)n * p, 4, "f", "rewards") < 0) goto f3;
    if (batch_buffer(dono, &d, n, 1, "?bB", "done") < 0) goto f4;
    if (batch_buffer(to, &t, n, 8, "qlQL", "to_act") < 0) goto f5;
    const int64_t *act = a.buf;
    for (int i = 0; i < n; i++) {
        if (!self->active[i]) continue;
        const TP *s = &self->s[i];
        int64_t c = act[i];
        if (c < 0 || c > 51 || !((legal_for(s, s->hands[s->turn], s->trick, s->tlen, s->played) >> c) & 1)) {
            PyErr_Format(PyExc_ValueError, "action %lld is not a legal card in game %d", (long long)c, i);
            goto f6;
        }
    }
    PyObject *finished = PyList_New(0);
    if (!finished) goto f6;
    float *obs = o.buf, *rew = r.buf;
    unsigned char *masks = mk.buf, *done = d.buf;
    int64_t *to_act = t.buf;
    for (int i = 0; i < n; i++) {
        if (!self->active[i]) continue;
        TP *s = &self->s[i];
        play(s, (int)act[i]);
        if (!s->finished) {
            batch_row(self, i, obs, masks, to_act);
            continue;
        }
        long fin[MAXP];
        final_scores(s, &self->m, self->pairs + 32 * (size_t)i, self->npairs[i], fin);
        for (int k = 0; k < p; k++) rew[(size_t)i * p + k] = (float)(self->sign * (double)fin[k] / self->unit);
        done[i] = 1;
        self->active[i] = 0;
        PyObject *x = PyLong_FromLong(i);
        if (!x || PyList_Append(finished, x) < 0) {
            Py_XDECREF(x);
            Py_DECREF(finished);
            goto f6;
        }
        Py_DECREF(x);
    }
    PyBuffer_Release(&t);
    PyBuffer_Release(&d);
    PyBuffer_Release(&r);
    PyBuffer_Release(&mk);
    PyBuffer_Release(&o);
    PyBuffer_Release(&a);
    return finished;
f6:
    PyBuffer_Release(&t);
f5:
    PyBuffer_Release(&d);
f4:
    PyBuffer_Release(&r);
f3:
    PyBuffer_Release(&mk);
f2:
    PyBuffer_Release(&o);
f1:
    PyBuffer_Release(&a);
    return NULL;
}

/* observe(i, obs, masks, to_act): write active game i's row (after load). */
static PyObject *batch_observe(TrickBatch *self, PyObject *args) {
    int i;
    PyObject *oo, *mo, *to;
    if (!PyArg_ParseTuple(args, "iOOO", &i, &oo, &mo, &to)) return NULL;
    if (i < 0 || i >= self->n || !self->active[i]) {
        PyErr_SetString(PyExc_ValueError, "observe: no game in play at this index");
        return NULL;
    }
    Py_buffer o, mk, t;
    if (batch_buffer(oo, &o, (Py_ssize_t)self->n * self->obs_size, 4, "f", "observations") < 0) return NULL;
    if (batch_buffer(mo, &mk, (Py_ssize_t)self->n * self->actions, 1, "?bB", "masks") < 0) {
        PyBuffer_Release(&o);
        return NULL;
    }
    if (batch_buffer(to, &t, self->n, 8, "qlQL", "to_act") < 0) {
        PyBuffer_Release(&mk);
        PyBuffer_Release(&o);
        return NULL;
    }
    batch_row(self, i, o.buf, mk.buf, t.buf);
    PyBuffer_Release(&t);
    PyBuffer_Release(&mk);
    PyBuffer_Release(&o);
    Py_RETURN_NONE;
}

/* Byte sizes of the per-game arrays, in the order __reduce__ writes them. */
static void batch_sizes(const TrickBatch *b, size_t *sz) {
    size_t n = (size_t)b->n, p = (size_t)b->players;
    sz[0] = n * sizeof(TP);
    sz[1] = n;
    sz[2] = n * 32 * sizeof(PairT);
    sz[3] = n * sizeof(int);
    sz[4] = n * p * p * sizeof(float);
}

static PyObject *batch_reduce(TrickBatch *self, PyObject *unused) {
    if (!self->s) {
        PyErr_SetString(PyExc_ValueError, "a TrickBatch that was never set up cannot be pickled");
        return NULL;
    }
    size_t sz[5], total = 0;
    batch_sizes(self, sz);
    for (int k = 0; k < 5; k++) total += sz[k];
    PyObject *state = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (!state) return NULL;
    char *at = PyBytes_AS_STRING(state);
    const void *parts[5] = {self->s, self->active, self->pairs, self->npairs, self->pairmat};
    for (int k = 0; k < 5; k++) {
        memcpy(at, parts[k], sz[k]);
        at += sz[k];
    }
    return Py_BuildValue("O(iiOiidd)N", (PyObject *)Py_TYPE(self), self->n, self->players, self->model, self->actions,
                         self->tricks_per_deal, self->sign, self->unit, state);
}

/* A state read back from a pickle is checked as unpack checks a packed state. */
static int batch_game_ok(const TrickBatch *b, const TP *s, const PairT *pairs, int np) {
    int p = b->players;
    if (s->players != p || (s->direction != 1 && s->direction != -1) || s->trump < -1 || s->trump > 3 ||
        s->tricks_total != b->tricks_per_deal || s->leader < 0 || s->leader >= p || s->turn < 0 || s->turn >= p ||
        s->tlen < 0 || s->tlen >= p || s->nwin < 0 || s->nwin > s->tricks_total || s->finished || np < 0 || np > 32)
        return 0;
    for (int i = 0; i < s->tlen; i++)
        if (s->trick[i] < 0 || s->trick[i] > 51) return 0;
    for (int i = 0; i < s->nwin; i++)
        if (s->winners[i] < 0 || s->winners[i] >= p) return 0;
    for (int i = 0; i < np; i++)
        if (pairs[i].a < 0 || pairs[i].a >= p || pairs[i].b < 0 || pairs[i].b >= p) return 0;
    if ((s->played | s->penalty | s->early_end) >> 52) return 0;
    if (check(s) < 0) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

static PyObject *batch_setstate(TrickBatch *self, PyObject *state) {
    if (!self->s || !PyBytes_Check(state)) {
        PyErr_SetString(PyExc_ValueError, "a TrickBatch's state is the bytes its __reduce__ wrote");
        return NULL;
    }
    size_t sz[5], total = 0;
    batch_sizes(self, sz);
    for (int k = 0; k < 5; k++) total += sz[k];
    if ((size_t)PyBytes_GET_SIZE(state) != total) {
        PyErr_SetString(PyExc_ValueError, "a TrickBatch's state does not fit its number of games and seats");
        return NULL;
    }
    const char *at = PyBytes_AS_STRING(state);
    TP *s = PyMem_Malloc(sz[0] ? sz[0] : 1);
    if (!s) return PyErr_NoMemory();
    memcpy(s, at, sz[0]);
    const unsigned char *active = (const unsigned char *)(at + sz[0]);
    const PairT *pairs = (const PairT *)(at + sz[0] + sz[1]);
    const int *npairs = (const int *)(at + sz[0] + sz[1] + sz[2]);
    for (int i = 0; i < self->n; i++)
        if (active[i] && !batch_game_ok(self, &s[i], pairs + 32 * (size_t)i, npairs[i])) {
            PyMem_Free(s);
            PyErr_Format(PyExc_ValueError, "a TrickBatch's state holds a game %d the core could not make", i);
            return NULL;
        }
    memcpy(self->s, s, sz[0]);
    PyMem_Free(s);
    memcpy(self->active, active, sz[1]);
    memcpy(self->pairs, pairs, sz[2]);
    memcpy(self->npairs, npairs, sz[3]);
    memcpy(self->pairmat, at + sz[0] + sz[1] + sz[2] + sz[3], sz[4]);
    Py_RETURN_NONE;
}

static PyObject *batch_is_active(TrickBatch *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_ValueError, "the game index is out of range");
        return NULL;
    }
    return PyBool_FromLong(self->active[i]);
}

static PyMethodDef batch_methods[] = {
    {"load", (PyCFunction)batch_load, METH_VARARGS, "load(i, state, pairs): game i's trick play, now compiled"},
    {"step", (PyCFunction)batch_step, METH_VARARGS,
     "step(actions, obs, masks, rewards, done, to_act) -> the games that finished"},
    {"observe", (PyCFunction)batch_observe, METH_VARARGS, "observe(i, obs, masks, to_act): write game i's row"},
    {"active", (PyCFunction)batch_is_active, METH_O, "active(i) -> whether game i's card play is compiled"},
    {"__reduce__", (PyCFunction)batch_reduce, METH_NOARGS, "pickles the batch with its games"},
    {"__setstate__", (PyCFunction)batch_setstate, METH_O, "restores the games a pickle holds (checked)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TrickBatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "barbu._native.TrickBatch",
    .tp_basicsize = sizeof(TrickBatch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The card play of a batch of trick deals, stepped together into NumPy buffers.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)batch_init,
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_methods = batch_methods,
};

static PyObject *py_pick(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyTuple_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "pick(table, mask) takes a tuple and a mask");
        return NULL;
    }
    PyObject *table = args[0];
    uint64_t mask;
    if (get_mask(args[1], &mask) < 0) return NULL;
    if (mask >> PyTuple_GET_SIZE(table) && PyTuple_GET_SIZE(table) < 64) {
        PyErr_SetString(PyExc_ValueError, "pick: the mask has a bit beyond the table");
        return NULL;
    }
    PyObject *out = PyList_New(__builtin_popcountll(mask));
    if (!out) return NULL;
    for (Py_ssize_t i = 0; mask; i++) {
        PyObject *x = PyTuple_GET_ITEM(table, low_bit(mask));
        mask &= mask - 1;
        Py_INCREF(x);
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* *r = rng.randrange(count) of a random.Random whose getrandbits is given, drawn as
 * Random._randbelow_with_getrandbits draws: getrandbits(32) once per word, its top
 * count.bit_length() bits kept (what getrandbits(k) returns for k <= 32); count >= 1. */
static int draw_below(PyObject *getrandbits, PyObject *bits32, unsigned long count, unsigned long *r) {
    int k = 64 - __builtin_clzll((unsigned long long)count); /* count.bit_length() */
    do {
        PyObject *w = PyObject_CallOneArg(getrandbits, bits32);
        if (!w) return -1;
        unsigned long word = PyLong_AsUnsignedLong(w);
        Py_DECREF(w);
        if (word == (unsigned long)-1 && PyErr_Occurred()) return -1;
        *r = (word & 0xFFFFFFFFUL) >> (32 - k);
    } while (*r >= count);
    return 0;
}

/* random_cards(state, draws) -> the cards played to the end of the deal when each seat plays
 * legal[rng.randrange(len(legal))] of its legal cards in ascending order, as barbu.bots.RandomBot
 * does with a random.Random: draws[seat] is that generator's getrandbits, called with 32 once
 * per word Random._randbelow_with_getrandbits draws (getrandbits(k) is the top k bits of one
 * word for k <= 32), so the generators advance exactly as they would card by card. */
static PyObject *py_random_cards(PyObject *self, PyObject *args) {
    PyObject *state, *draws;
    if (!PyArg_ParseTuple(args, "OO!", &state, &PyTuple_Type, &draws)) return NULL;
    TP s;
    if (unpack(state, &s) < 0) return NULL;
    if (PyTuple_GET_SIZE(draws) != s.players) {
        PyErr_SetString(PyExc_ValueError, "random_cards takes one generator per seat");
        return NULL;
    }
    PyObject *out = PyList_New(0), *bits = PyLong_FromLong(32);
    if (!out || !bits) goto fail;
    while (!s.finished) {
        uint64_t legal = legal_for(&s, s.hands[s.turn], s.trick, s.tlen, s.played);
        if (!legal) break; /* a state whose hands ran out before its last trick */
        unsigned long count = (unsigned long)__builtin_popcountll(legal);
        unsigned long r;
        if (draw_below(PyTuple_GET_ITEM(draws, s.turn), bits, count, &r) < 0) goto fail;
        while (r--) legal &= legal - 1;
        int c = low_bit(legal);
        PyObject *x = PyLong_FromLong(c);
        if (!x || PyList_Append(out, x) < 0) {
            Py_XDECREF(x);
            goto fail;
        }
        Py_DECREF(x);
        play(&s, c);
    }
    Py_DECREF(bits);
    return out;
fail:
    Py_XDECREF(out);
    Py_XDECREF(bits);
    return NULL;
}

/* ---- random_lays: random bots' domino play drawn in one call ---------------------------- */

/* random_lays(play, draws) -> the lays (None: a pass) from a DominoCore's position to the end
 * of its deal when each seat plays legal[rng.randrange(len(legal))] of its legal lays in
 * ascending order, or passes after drawing randrange(1) when it has none, as
 * barbu.bots.RandomBot does with the deal's legal actions ([Pass()] when it cannot lay);
 * draws[seat] is the seat's getrandbits, as for random_cards. The lays are played on a copy
 * through dom_play, so the rules are DominoCore's own; play is not changed. */
static PyObject *py_random_lays(PyObject *self, PyObject *args) {
    PyObject *play, *draws;
    if (!PyArg_ParseTuple(args, "O!O!", &DominoCoreType, &play, &PyTuple_Type, &draws)) return NULL;
    DominoCore *d = (DominoCore *)dom_copy((DominoCore *)play, NULL);
    if (!d) return NULL;
    PyObject *out = PyList_New(0), *bits = PyLong_FromLong(32);
    if (!out || !bits || dom_check(d) < 0) goto fail;
    if (PyTuple_GET_SIZE(draws) != d->players) {
        PyErr_SetString(PyExc_ValueError, "random_lays takes one generator per seat");
        goto fail;
    }
    for (long steps = 0; !d->finished; steps++) {
        if (steps > 8L * 52 * d->players) { /* every seat passing for ever: not a position the core makes */
            dom_bad_state();
            goto fail;
        }
        uint64_t hand;
        if (dom_hand(d, d->turn, &hand) < 0) goto fail;
        uint64_t legal = hand & d->playable;
        unsigned long r;
        if (draw_below(PyTuple_GET_ITEM(draws, d->turn), bits, legal ? (unsigned long)__builtin_popcountll(legal) : 1,
                       &r) < 0)
            goto fail;
        PyObject *x;
        if (legal) {
            while (r--) legal &= legal - 1;
            x = PyLong_FromLong(low_bit(legal));
            if (!x) goto fail;
        } else
            x = Py_NewRef(Py_None);
        PyObject *done = PyList_Append(out, x) < 0 ? NULL : dom_play(d, x);
        Py_DECREF(x);
        if (!done) goto fail;
        Py_DECREF(done);
    }
    Py_DECREF(bits);
    Py_DECREF(d);
    return out;
fail:
    Py_XDECREF(out);
    Py_XDECREF(bits);
    Py_DECREF(d);
    return NULL;
}

/* ---- end of random_lays ---- */

static PyMethodDef methods[] = {
    {"pick", (PyCFunction)(void (*)(void))py_pick, METH_FASTCALL,
     "pick(table, mask) -> the entries of table at the set bits of mask, ascending"},
    {"legal", py_legal, METH_O, "legal(state) -> the mask of the cards the seat to act may play"},
    {"step", py_step, METH_VARARGS, "step(state, card) -> the state after the seat to act plays card"},
    {"raw", py_raw, METH_VARARGS, "raw(state, model) -> each seat's raw score of the tricks taken so far"},
    {"playouts", py_playouts, METH_VARARGS,
     "playouts(state, model, pairs, count, seed, record, guide) -> final scores of count completions"},
    {"solve", py_solve, METH_VARARGS, "solve(state, model, care, sign, cost, root) -> each seat's value"},
    {"random_cards", py_random_cards, METH_VARARGS,
     "random_cards(state, draws) -> the cards seats drawing with draws[seat] (getrandbits) play to the end"},
    {"choose", py_choose, METH_VARARGS, "choose(state, guide) -> the rules-of-thumb card of the seat to act"},
    {"finish", py_finish, METH_VARARGS,
     "finish(state, model, pairs, guide, care, sign, endgame, me) -> me's value of a rules-of-thumb finish"},
    {"random_lays", py_random_lays, METH_VARARGS,
     "random_lays(play, draws) -> the lays (None: a pass) seats drawing with draws[seat] make to the end"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "barbu._native", "Compiled kernels of trick play.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddIntConstant(m, "STATE_BYTES", (long)sizeof(TP)) < 0 || PyType_Ready(&TrickCoreType) < 0 ||
              PyModule_AddObjectRef(m, "TrickCore", (PyObject *)&TrickCoreType) < 0 ||
              PyType_Ready(&DominoCoreType) < 0 ||
              PyModule_AddObjectRef(m, "DominoCore", (PyObject *)&DominoCoreType) < 0 ||
              PyType_Ready(&TrickBatchType) < 0 ||
              PyModule_AddObjectRef(m, "TrickBatch", (PyObject *)&TrickBatchType) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
