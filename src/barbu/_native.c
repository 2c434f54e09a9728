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

static PyObject *long_tuple(const long *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
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

/* final(captured, winners, model, pairs) -> each seat's final points of a trick deal played out:
 * the score model's raw scores of the cards and tricks taken, plus the pairs' settlement. */
static PyObject *py_final(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyList_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "final(captured, winners, model, pairs) takes two lists, a model and pairs");
        return NULL;
    }
    TP s;
    memset(&s, 0, sizeof s);
    Py_ssize_t p = PyList_GET_SIZE(args[0]), nw = PyList_GET_SIZE(args[1]);
    if (p < 2 || p > MAXP || nw > MAXT) {
        PyErr_SetString(PyExc_ValueError, "final takes 2 to 6 seats' captured cards and at most 26 tricks' winners");
        return NULL;
    }
    s.players = (int)p;
    for (Py_ssize_t k = 0; k < p; k++)
        if (get_mask(PyList_GET_ITEM(args[0], k), &s.captured[k]) < 0) return NULL;
    for (Py_ssize_t k = 0; k < nw; k++) {
        long w = PyLong_AsLong(PyList_GET_ITEM(args[1], k));
        if (w == -1 && PyErr_Occurred()) return NULL;
        if (w < 0 || w >= p) {
            PyErr_SetString(PyExc_ValueError, "a trick's winner is a seat");
            return NULL;
        }
        s.winners[k] = (int)w;
    }
    s.nwin = (int)nw;
    Model m;
    PairT pairs[32];
    int np;
    if (unpack_model(args[2], &m) < 0 || unpack_pairs(args[3], pairs, &np, (int)p) < 0) return NULL;
    long fin[MAXP];
    final_scores(&s, &m, pairs, np, fin);
    PyObject *scores = long_tuple(fin, (int)p);
    if (!scores) return NULL;
    PyObject *out = PySequence_List(scores);
    Py_DECREF(scores);
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
        PyObject *scores = long_tuple(fin, n);
        if (!scores) goto fail;
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

/* ---- the endgame solver: the same search as barbu.bots.endgame.solve ------------------------
 *
 * Max^n over every distinct line of play, with a table of positions at trick boundaries.
 *
 * The score model is linear: the raw scores of a finished line are its prefix (the cards taken,
 * the tricks won and the first trick, kept as the line is played) plus the last and second-last
 * tricks. What the rest of the deal adds to the prefix from a trick boundary depends on that
 * position only (its second-last trick may be the previous one, whose winner is the leader).
 * Care and sign are whole numbers, so the values of the lines from a position differ from those
 * of the same position reached another way by the same whole amount per seat: every choice
 * within it is the same, and the table keeps what the rest adds to the raw scores of the line
 * chosen. The values are then worked out from the full raw scores as at a finished line.
 *
 * Two positions are the same when they differ only in which cards were played: the cards still
 * held, suit by suit from the lowest, have the same holders and the same class (what the card
 * costs the search and scores, whether it is a forced penalty card or one that ends the deal),
 * with a card out of play (not dealt) between the same two of them, the same leader and the same
 * answer to "a heart was played". Every rule the search applies (legal cards, who takes a trick,
 * which held cards are equivalent, the early end) reads only that, so the lines of the two
 * positions match card for card, in the same order, and add the same raw scores. */

#define TT_BITS 16
#define TT_SIZE (1u << TT_BITS)
#define KEY_BYTES 60 /* leader and heart byte, four suit counts, one byte per card held */

typedef struct {
    uint8_t key[KEY_BYTES];
    uint32_t gen;
    int32_t rest[MAXP]; /* what the rest of the deal adds to each seat's raw score */
} TTEntry;

/* What a table's entries hold for: everything a solve reads besides the position's key. Two
 * solves with the same context (the candidates of a decision in one world, and its other
 * worlds: the same rules, trump, score model, care, sign, costs, seat searched for and cards
 * out of play) value a position of the same key alike, so the second reads the first's
 * entries. Filled field by field after a memset, so that memcmp compares no padding. */
typedef struct {
    Model m;
    double care[MAXP][MAXP];
    double sign;
    double cost[52];
    uint64_t penalty, early_end, out_of_play;
    int players, direction, trump, heart_rule, heart_broken, must_trump, overtrump, undertrump, tricks_total;
    int root;
    uint8_t cls[52];
} Context;

typedef struct Table {
    struct Table *next; /* in the free list */
    uint32_t gen;
    int has_context; /* ctx holds the context of the entries stamped gen */
    Context ctx;
    TTEntry e[TT_SIZE];
} Table;

/* Tables not in use, taken and given back with the GIL held (a solve runs without it). */
static Table *free_tables = NULL;

static Table *take_table(void) {
    Table *t = free_tables;
    if (t) {
        free_tables = t->next;
        return t;
    }
    return (Table *)calloc(1, sizeof(Table)); /* NULL: the search runs without a table */
}

static void give_table(Table *t) {
    if (!t) return;
    t->next = free_tables;
    free_tables = t;
}

typedef struct {
    TP s; /* rules, and the hands, captured and winners of the line being searched */
    Model m;
    double care[MAXP][MAXP];
    double sign;
    double cost[52];
    int root, n;
    int nxt[MAXP];
    long prefix[MAXP]; /* raw scores of the tricks played so far: cards, tricks, first trick */
    Table *table;      /* NULL: none could be had */
    int tabled;        /* the table is used: there is one and at most 16 classes of cards */
    uint64_t out_of_play; /* cards of no hand, no trick played and not in the trick at the start */
    uint8_t cls[52];      /* each card's class, 0 to 15 */
} Solver;

/* The raw scores of the line once its last trick is in the prefix. */
static void finished_raw(const Solver *v, long *raw) {
    for (int p = 0; p < v->n; p++) raw[p] = v->prefix[p];
    int nw = v->s.nwin;
    if (nw >= 1) raw[v->s.winners[nw - 1]] += v->m.last;
    if (nw >= 2) raw[v->s.winners[nw - 2]] += v->m.second_last;
}

static void value_of(const Solver *v, const long *raw, double *out) {
    for (int p = 0; p < v->n; p++) {
        double acc = 0.0;
        for (int q = 0; q < v->n; q++) acc += v->care[p][q] * (double)raw[q];
        out[p] = v->sign * acc;
    }
}

static void values(Solver *v, double *out, long *raw) {
    finished_raw(v, raw);
    value_of(v, raw, out);
}

/* What a trick of the cards of mask adds to its winner's prefix. */
static long trick_gain(const Solver *v, uint64_t mask) {
    long gain = v->m.per_trick + (v->s.nwin == 0 ? v->m.first : 0);
    while (mask) {
        gain += v->m.card[low_bit(mask)];
        mask &= mask - 1;
    }
    return gain;
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

static void last_trick(Solver *v, int leader, double *out, long *raw) {
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
    long gain = trick_gain(v, mask);
    v->s.captured[w] |= mask;
    v->s.winners[v->s.nwin++] = w;
    v->prefix[w] += gain;
    values(v, out, raw);
    v->prefix[w] -= gain;
    v->s.nwin--;
    v->s.captured[w] ^= mask;
}

static void search(Solver *v, int seat, int leader, int *trick, int tlen, uint64_t in_trick, uint64_t played,
                   double *best, long *best_raw);

/* The position's key (see above) and its slot in the table. */
static uint32_t position_key(const Solver *v, int leader, uint64_t played, uint8_t *key) {
    uint64_t held = 0;
    for (int p = 0; p < v->n; p++) held |= v->s.hands[p];
    memset(key, 0, KEY_BYTES);
    key[0] = (uint8_t)(leader | ((played & HEARTS_MASK) ? 8 : 0));
    int k = 5;
    for (int suit = 0; suit < 4; suit++) {
        uint64_t cards = held & SUIT(suit);
        key[1 + suit] = (uint8_t)__builtin_popcountll(cards);
        int prev = -1;
        while (cards) {
            int c = low_bit(cards);
            cards &= cards - 1;
            int owner = 0;
            while (!(v->s.hands[owner] >> c & 1)) owner++;
            int apart = prev >= 0 && (v->out_of_play & ((1ULL << c) - 1) & ~((2ULL << prev) - 1)) != 0;
            key[k++] = (uint8_t)(owner | v->cls[c] << 3 | apart << 7);
            prev = c;
        }
    }
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < k; i++) h = (h ^ key[i]) * 0x100000001B3ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return (uint32_t)(h & (TT_SIZE - 1));
}

/* The value of the position at a trick boundary where leader leads after the tricks of played,
 * from the table when the same position was searched before, in this solve or an earlier one of
 * the same context. */
static void boundary(Solver *v, int leader, uint64_t played, double *out, long *raw) {
    TTEntry *e = NULL;
    uint8_t key[KEY_BYTES];
    if (v->tabled) {
        e = &v->table->e[position_key(v, leader, played, key)];
        if (e->gen == v->table->gen && memcmp(e->key, key, KEY_BYTES) == 0) {
            for (int p = 0; p < v->n; p++) raw[p] = v->prefix[p] + e->rest[p];
            value_of(v, raw, out);
            return;
        }
    }
    int next_trick[MAXP];
    search(v, leader, leader, next_trick, 0, 0, played, out, raw);
    if (e) {
        e->gen = v->table->gen;
        memcpy(e->key, key, KEY_BYTES);
        for (int p = 0; p < v->n; p++) e->rest[p] = (int32_t)(raw[p] - v->prefix[p]);
    }
}

static void search(Solver *v, int seat, int leader, int *trick, int tlen, uint64_t in_trick, uint64_t played,
                   double *best, long *best_raw) {
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
    long raw[MAXP];
    for (int i = 0; i < k; i++) {
        int c = cards[i];
        uint64_t bit = 1ULL << c;
        v->s.hands[seat] = hand ^ bit;
        trick[tlen] = c;
        uint64_t mask = in_trick | bit;
        if (tlen + 1 < v->n) {
            search(v, v->nxt[seat], leader, trick, tlen + 1, mask, played, val, raw);
        } else {
            int w = taker(&v->s, trick, tlen + 1, mask, leader);
            long gain = trick_gain(v, mask);
            v->s.captured[w] |= mask;
            v->s.winners[v->s.nwin++] = w;
            v->prefix[w] += gain;
            uint64_t after = played | mask;
            if (v->s.nwin == v->s.tricks_total || (v->s.early_end && (after & v->s.early_end) == v->s.early_end))
                values(v, val, raw);
            else if (v->s.nwin == v->s.tricks_total - 1)
                last_trick(v, w, val, raw);
            else
                boundary(v, w, after, val, raw);
            v->prefix[w] -= gain;
            v->s.nwin--;
            v->s.captured[w] ^= mask;
        }
        if (!have || val[seat] > best[seat] + 1e-9 || (val[seat] > best[seat] - 1e-9 && val[v->root] < best[v->root])) {
            memcpy(best, val, sizeof(double) * v->n);
            memcpy(best_raw, raw, sizeof(long) * v->n);
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

/* Each seat's value of s under perfect play (v's model, care, sign, cost and table set). */
static void solve_state(Solver *v, const TP *s, int root, double *out) {
    long raw[MAXP];
    v->s = *s;
    v->n = s->players;
    v->root = root;
    for (int p = 0; p < v->n; p++) v->nxt[p] = next_seat(s, p);
    /* the prefix of the tricks already played: cards taken, tricks won, the first trick */
    for (int p = 0; p < v->n; p++) {
        long sum = 0;
        uint64_t c = v->s.captured[p];
        while (c) {
            sum += v->m.card[low_bit(c)];
            c &= c - 1;
        }
        v->prefix[p] = sum;
    }
    for (int i = 0; i < v->s.nwin; i++) v->prefix[v->s.winners[i]] += v->m.per_trick;
    if (v->s.nwin >= 1) v->prefix[v->s.winners[0]] += v->m.first;
    uint64_t in_trick = 0;
    int trick[MAXP];
    for (int i = 0; i < v->s.tlen; i++) {
        trick[i] = v->s.trick[i];
        in_trick |= 1ULL << trick[i];
    }
    v->tabled = v->table != NULL;
    if (v->tabled) {
        /* the classes of the cards: cost, score, forced penalty card, card that ends the deal */
        int classes = 0;
        double ccost[16];
        long cscore[16];
        int cflags[16];
        for (int c = 0; c < 52 && v->tabled; c++) {
            int flags = (int)(v->s.penalty >> c & 1) | (int)(v->s.early_end >> c & 1) << 1;
            int k = 0;
            while (k < classes && !(ccost[k] == v->cost[c] && cscore[k] == v->m.card[c] && cflags[k] == flags)) k++;
            if (k == 16) {
                v->tabled = 0; /* more than 16 classes: no table this time */
                break;
            }
            if (k == classes) {
                ccost[k] = v->cost[c];
                cscore[k] = v->m.card[c];
                cflags[k] = flags;
                classes++;
            }
            v->cls[c] = (uint8_t)k;
        }
        uint64_t in_play = v->s.played | in_trick;
        for (int p = 0; p < v->n; p++) in_play |= v->s.hands[p];
        v->out_of_play = ~in_play & ((1ULL << 52) - 1);
    }
    if (v->tabled) {
        /* The entries of an earlier solve in the same context stay; another context starts afresh. */
        Context ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.m = v->m;
        memcpy(ctx.care, v->care, sizeof ctx.care);
        ctx.sign = v->sign;
        memcpy(ctx.cost, v->cost, sizeof ctx.cost);
        ctx.penalty = v->s.penalty;
        ctx.early_end = v->s.early_end;
        ctx.out_of_play = v->out_of_play;
        ctx.players = v->s.players;
        ctx.direction = v->s.direction;
        ctx.trump = v->s.trump;
        ctx.heart_rule = v->s.heart_rule;
        ctx.heart_broken = v->s.heart_broken;
        ctx.must_trump = v->s.must_trump;
        ctx.overtrump = v->s.overtrump;
        ctx.undertrump = v->s.undertrump;
        ctx.tricks_total = v->s.tricks_total;
        ctx.root = root;
        memcpy(ctx.cls, v->cls, sizeof ctx.cls);
        Table *t = v->table;
        if (!t->has_context || memcmp(&t->ctx, &ctx, sizeof ctx) != 0) {
            memcpy(&t->ctx, &ctx, sizeof ctx);
            t->has_context = 1;
            if (++t->gen == 0) { /* the stamps wrapped round: forget every entry */
                memset(t->e, 0, sizeof t->e);
                t->gen = 1;
            }
        }
    }
    if (v->s.finished)
        values(v, out, raw);
    else if (v->s.tlen == 0 && v->s.nwin == v->s.tricks_total - 1)
        last_trick(v, v->s.leader, out, raw);
    else
        search(v, v->s.turn, v->s.leader, trick, v->s.tlen, in_trick, v->s.played, out, raw);
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
    v.table = take_table();
    Py_BEGIN_ALLOW_THREADS
    solve_state(&v, &s, root, out);
    Py_END_ALLOW_THREADS
    give_table(v.table);
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
    v.table = endgame ? take_table() : NULL;
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
    give_table(v.table);
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

/* The checked door's log of a legal card (or domino pass): if seat is None or equal to turn (the
 * seat to act), append card and turn to the lists cards and seats and return the seat (a new
 * reference); Py_None (a new reference, nothing changed) for another seat; NULL on error. */
static PyObject *log_turn(int turn, PyObject *seat, PyObject *card, PyObject *cards, PyObject *seats) {
    PyObject *who = PyLong_FromLong(turn);
    if (!who) return NULL;
    if (seat != Py_None) {
        int eq = PyObject_RichCompareBool(seat, who, Py_EQ);
        if (eq <= 0) {
            Py_DECREF(who);
            return eq < 0 ? NULL : Py_NewRef(Py_None);
        }
    }
    if (PyList_Append(cards, card) < 0 || PyList_Append(seats, who) < 0) {
        Py_DECREF(who);
        return NULL;
    }
    return who;
}

/* Whether card (any object) is a legal card, an exact int, of the seat to act: 1 if it is, 0 if
 * not, -1 with an exception set if the trick play could not say. The card steps' shared test. */
static int core_legal_card(TrickCore *self, PyObject *card) {
    if (!PyLong_CheckExact(card)) return 0;
    int overflow;
    long c = PyLong_AsLongAndOverflow(card, &overflow);
    if (overflow || c < 0 || c > 51) return 0;
    if (core_turn(self) < 0 || core_legal(self) < 0) return -1;
    return (int)((uint64_t)self->legal >> c & 1);
}

/* play_logged(card, seat, cards, seats): PureTrickPlay.play_logged, the checked door's card. */
static PyObject *core_play_logged(TrickCore *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyList_Check(args[2]) || !PyList_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "play_logged(card, seat, cards, seats) takes two lists to log into");
        return NULL;
    }
    PyObject *card = args[0];
    int legal = core_legal_card(self, card);
    if (legal <= 0) {
        if (legal < 0) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *who = log_turn(self->turn, args[1], card, args[2], args[3]);
    if (who == NULL || who == Py_None) return who;
    PyObject *r = core_play(self, card);
    if (!r) {
        Py_DECREF(who);
        return NULL;
    }
    Py_DECREF(r);
    return who;
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

/* ---- play_tail: a card applied to OpenSpiel's state from Python, in one call (TrickCore) ---- */

/* play_tail(card, tail, pending): PureTrickPlay.play_tail. If card is a legal card (an int) of the
 * seat to act, append (seat, card) to tail and card to pending, play it and return the next seat
 * to act, or -1 once the play is over; otherwise change nothing and return None. */
static PyObject *core_play_tail(TrickCore *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyList_Check(args[1]) || !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "play_tail(card, tail, pending) takes two lists to log into");
        return NULL;
    }
    PyObject *card = args[0];
    int legal = core_legal_card(self, card);
    if (legal <= 0) {
        if (legal < 0) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *seat = PyLong_FromLong(self->turn);
    if (!seat) return NULL;
    PyObject *pair = PyTuple_Pack(2, seat, card);
    Py_DECREF(seat);
    if (!pair) return NULL;
    /* Both lists or neither: one whose append succeeded is cut back if the other's fails. */
    Py_ssize_t logged = PyList_GET_SIZE(args[1]);
    int bad = PyList_Append(args[1], pair) < 0;
    Py_DECREF(pair);
    if (bad) return NULL;
    if (PyList_Append(args[2], card) < 0) {
        PyObject *type, *value, *trace;
        PyErr_Fetch(&type, &value, &trace);
        PyList_SetSlice(args[1], logged, PY_SSIZE_T_MAX, NULL); /* a deletion: no allocation */
        PyErr_Restore(type, value, trace);
        return NULL;
    }
    PyObject *r = core_play(self, card);
    if (!r) return NULL;
    Py_DECREF(r);
    return PyLong_FromLong(self->finished ? -1 : self->turn);
}

/* ---- end of play_tail (TrickCore) ---- */

/* legal_cards() -> the legal cards of the seat to act, ascending (PureTrickPlay.legal_cards). */
static PyObject *core_legal_cards(TrickCore *self, PyObject *unused) {
    if (core_legal(self) < 0) return NULL;
    uint64_t mask = (uint64_t)self->legal;
    PyObject *out = PyList_New(__builtin_popcountll(mask));
    if (!out) return NULL;
    for (Py_ssize_t i = 0; mask; i++) {
        PyObject *c = PyLong_FromLong(low_bit(mask));
        if (!c) {
            Py_DECREF(out);
            return NULL;
        }
        mask &= mask - 1;
        PyList_SET_ITEM(out, i, c);
    }
    return out;
}

/* ---- play_random: random bots' card play on the state itself (TrickCore) --------------- */

static int draw_below(PyObject *getrandbits, PyObject *bits32, unsigned long count, unsigned long *r);
static int play_random_args(PyObject *const *args, Py_ssize_t nargs, int players);

/* A random bot's card: legal[rng.randrange(len(legal))] of the legal cards in ascending order
 * (draw: the seat's generator's getrandbits, see draw_below), or a domino pass (None) after
 * randrange(1) when legal is 0; appended to cards, and turn to seats. A new reference, or NULL. */
static PyObject *draw_logged(PyObject *draw, PyObject *bits, uint64_t legal, int turn, PyObject *cards, PyObject *seats) {
    unsigned long r;
    if (draw_below(draw, bits, legal ? (unsigned long)__builtin_popcountll(legal) : 1, &r) < 0) return NULL;
    while (legal && r--) legal &= legal - 1;
    PyObject *card = legal ? PyLong_FromLong(low_bit(legal)) : Py_NewRef(Py_None);
    PyObject *seat = PyLong_FromLong(turn);
    if (!card || !seat || PyList_Append(cards, card) < 0 || PyList_Append(seats, seat) < 0) {
        Py_XDECREF(card);
        Py_XDECREF(seat);
        return NULL;
    }
    Py_DECREF(seat);
    return card;
}

/* play_random(draws, cards, seats): play to the end of the deal, the seat to act always
 * playing legal[rng.randrange(len(legal))] of its legal cards in ascending order, as
 * barbu.bots.RandomBot does with a random.Random; draws[seat] is that generator's
 * getrandbits (see draw_below). Each card is played by play (so the lists stay the state's
 * truth) and appended to cards, its seat to seats: the deal's log, as play_logged writes it. */
static PyObject *core_play_random(TrickCore *self, PyObject *const *args, Py_ssize_t nargs) {
    if (core_turn(self) < 0 || play_random_args(args, nargs, self->players) < 0) return NULL;
    PyObject *bits = PyLong_FromLong(32);
    if (!bits) return NULL;
    while (!self->finished) {
        if (core_legal(self) < 0) goto fail;
        uint64_t legal = (uint64_t)self->legal;
        if (!legal) break; /* hands that ran out before the last trick: not a state the core makes */
        PyObject *card = draw_logged(PyTuple_GET_ITEM(args[0], self->turn), bits, legal, self->turn, args[1], args[2]);
        PyObject *done = card ? core_play(self, card) : NULL;
        Py_XDECREF(card);
        if (!done) goto fail;
        Py_DECREF(done);
    }
    Py_DECREF(bits);
    Py_RETURN_NONE;
fail:
    Py_DECREF(bits);
    return NULL;
}

/* ---- end of play_random (TrickCore) ---- */

static PyMethodDef core_methods[] = {
    {"legal_mask", (PyCFunction)core_legal_mask, METH_NOARGS,
     "legal_mask() -> the mask of the cards the seat to act may play (RULES.md 2.9.1)"},
    {"legal_cards", (PyCFunction)core_legal_cards, METH_NOARGS,
     "legal_cards() -> the cards the seat to act may play, ascending"},
    {"play", (PyCFunction)core_play, METH_O, "play(card) -> play card for the seat to act, unchecked"},
    {"play_logged", (PyCFunction)(void (*)(void))core_play_logged, METH_FASTCALL,
     "play_logged(card, seat, cards, seats) -> the seat that played card if it was legal, else None"},
    {"copy", (PyCFunction)core_copy, METH_NOARGS, "copy() -> an independent copy, cheap enough for search"},
    {"set_hands", (PyCFunction)core_set_hands, METH_O,
     "set_hands(hands) -> give the seats other cards, as many each as they hold now; unchecked"},
    {"play_next", (PyCFunction)core_play_next, METH_O,
     "play_next(card) -> play card unchecked; the next legal mask, or -1 once the play is over"},
    {"play_tail", (PyCFunction)(void (*)(void))core_play_tail, METH_FASTCALL,
     "play_tail(card, tail, pending) -> if card is legal, log (seat, card) to tail and card to pending, "
     "play it and return the next seat to act (-1 once the play is over); else None"},
    {"play_random", (PyCFunction)(void (*)(void))core_play_random, METH_FASTCALL,
     "play_random(draws, cards, seats) -> play to the end as random bots drawing with draws[seat] "
     "(getrandbits) would, each card appended to cards and its seat to seats"},
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

/* play_logged(card, seat, cards, seats): PureDominoPlay.play_logged, the checked door's lay or pass
 * (card None): the seat to act (seat None or equal to it) lays a card it may lay, or passes when it
 * may lay none; the card and the seat are appended to the two lists, the lay played (dom_play) and
 * the seat returned. Anything else changes nothing and returns None. */
static PyObject *dom_play_logged(DominoCore *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyList_Check(args[2]) || !PyList_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "play_logged(card, seat, cards, seats) takes two lists to log into");
        return NULL;
    }
    PyObject *card = args[0];
    uint64_t hand;
    if (dom_check(self) < 0 || dom_hand(self, self->turn, &hand) < 0) return NULL;
    uint64_t legal = hand & self->playable;
    if (card == Py_None) {
        if (legal) Py_RETURN_NONE; /* a pass only when nothing can be laid */
    } else {
        if (!PyLong_CheckExact(card)) Py_RETURN_NONE;
        int overflow;
        long c = PyLong_AsLongAndOverflow(card, &overflow);
        if (overflow || c < 0 || c > 51 || !(legal >> c & 1)) Py_RETURN_NONE;
    }
    PyObject *who = log_turn(self->turn, args[1], card, args[2], args[3]);
    if (who == NULL || who == Py_None) return who;
    PyObject *r = dom_play(self, card);
    if (!r) {
        Py_DECREF(who);
        return NULL;
    }
    Py_DECREF(r);
    return who;
}

/* ---- play_random: random bots' lays and passes on the state itself (DominoCore) -------- */

/* play_random(draws, plays, seats): TrickCore.play_random for domino: the seat to act lays
 * legal[rng.randrange(len(legal))] of its legal lays in ascending order, or passes after
 * drawing randrange(1) when it has none, as barbu.bots.RandomBot does with the deal's legal
 * actions ([Pass()] when it cannot lay); each lay (None: a pass) is played by play and
 * appended to plays, its seat to seats. */
static PyObject *dom_play_random(DominoCore *self, PyObject *const *args, Py_ssize_t nargs) {
    if (dom_check(self) < 0 || play_random_args(args, nargs, self->players) < 0) return NULL;
    PyObject *bits = PyLong_FromLong(32);
    if (!bits) return NULL;
    for (long steps = 0; !self->finished; steps++) {
        if (steps > 8L * 52 * self->players) { /* every seat passing for ever: not a position the core makes */
            dom_bad_state();
            goto fail;
        }
        uint64_t hand;
        if (dom_hand(self, self->turn, &hand) < 0) goto fail;
        uint64_t legal = hand & self->playable;
        PyObject *lay = draw_logged(PyTuple_GET_ITEM(args[0], self->turn), bits, legal, self->turn, args[1], args[2]);
        PyObject *done = lay ? dom_play(self, lay) : NULL;
        Py_XDECREF(lay);
        if (!done) goto fail;
        Py_DECREF(done);
    }
    Py_DECREF(bits);
    Py_RETURN_NONE;
fail:
    Py_DECREF(bits);
    return NULL;
}

/* ---- end of play_random (DominoCore) ---- */

static PyMethodDef dom_methods[] = {
    {"legal_mask", (PyCFunction)dom_legal_mask, METH_NOARGS, "legal_mask() -> the cards the seat to act may lay (0: it must pass)"},
    {"play", (PyCFunction)dom_play, METH_O, "play(card) -> lay card for the seat to act, or pass with None; unchecked"},
    {"copy", (PyCFunction)dom_copy, METH_NOARGS, "copy() -> an independent copy"},
    {"set_hands", (PyCFunction)dom_set_hands, METH_O,
     "set_hands(hands) -> give the seats other cards, as many each as they hold now; unchecked"},
    {"play_next", (PyCFunction)dom_play_next, METH_O,
     "play_next(card) -> lay card (None: pass) unchecked; the next legal mask, or -1 once the play is over"},
    {"play_logged", (PyCFunction)(void (*)(void))dom_play_logged, METH_FASTCALL,
     "play_logged(card, seat, cards, seats) -> the seat that laid card (None: passed) if that was legal, else None"},
    {"play_random", (PyCFunction)(void (*)(void))dom_play_random, METH_FASTCALL,
     "play_random(draws, plays, seats) -> play to the end as random bots drawing with draws[seat] "
     "(getrandbits) would, each lay (None: a pass) appended to plays and its seat to seats"},
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
/* ==== BEGIN the batch simulator: N deals from the seeded deal to the scores, stepped together ====
 *
 * barbu.research.batch.BatchEnv's games, each held here from its deal to its score: step() takes
 * one action per game and writes every game's observation row, legal mask and seat to act, and
 * the rewards and done flags of the games that end, straight into the caller's arrays, as
 * BatchEnv's pure path computes them; a game that ends is dealt again at once from the next seed
 * (games in index order, as the pure path deals them).
 *
 * No rule of the calls is written here. The calls (and any choice before the cards) are a tree of
 * nodes the core grows: a node is what the core's Deal says at that point (the seat to act, the
 * action indexes of its legal actions, the business pairs so far, and once the calls are over
 * either the trick play's packed start, from which the rules and the leader are read, or the
 * scores of a deal settled without play); a node's child is asked of the core (the grow callback
 * of step: BatchEnv._grow, which applies the action to a copy of the node's Deal) the first time a
 * game takes that action, and is a table look-up from then on.
 *
 * The seeded deal is barbu.game.Dealer's: Python's random.Random(seed) (the Mersenne Twister,
 * seeded from |seed| as random_seed does: init_by_array on its 32-bit words), randrange(players)
 * for the first declarer (Random._randbelow_with_getrandbits), then one random() per card of
 * rules.deck_cards, the cards sorted by their draws (a stable sort), and dealt one at a time from
 * the declarer in the rules' direction. The card play is the kernels' (legal_for, play) and the
 * scores the score model's with the pairs' settlement (final_scores). */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int i;
} MT;

static uint32_t mt_base[MT_N]; /* init_genrand(19650218), where init_by_array starts */
static int mt_base_ready;

#define MT_LANES 4

/* random.Random(seed) for `lanes` seeds at once, at most MT_LANES (the same arithmetic, seed by
 * seed: the lanes only let the processor overlap the seeds' long chains of dependent steps). */
static void mt_seed_lanes(MT *r, const uint64_t *seeds, int lanes) {
    if (!mt_base_ready) {
        mt_base[0] = 19650218U;
        for (int i = 1; i < MT_N; i++) mt_base[i] = 1812433253U * (mt_base[i - 1] ^ (mt_base[i - 1] >> 30)) + (uint32_t)i;
        mt_base_ready = 1;
    }
    uint32_t key[MT_LANES][2], prev[MT_LANES];
    int len[MT_LANES], j[MT_LANES];
    for (int l = 0; l < lanes; l++) {
        key[l][0] = (uint32_t)seeds[l];
        key[l][1] = (uint32_t)(seeds[l] >> 32);
        len[l] = key[l][1] ? 2 : 1; /* |seed|'s 32-bit words, at least one */
        j[l] = 0;
        memcpy(r[l].mt, mt_base, sizeof mt_base);
        prev[l] = mt_base[0];
    }
    int i = 1;
    for (int k = MT_N; k; k--) { /* max(N, key length) steps */
#pragma GCC unroll 4
        for (int l = 0; l < lanes; l++) {
            uint32_t x = (r[l].mt[i] ^ ((prev[l] ^ (prev[l] >> 30)) * 1664525U)) + key[l][j[l]] + (uint32_t)j[l];
            r[l].mt[i] = prev[l] = x;
            if (++j[l] >= len[l]) j[l] = 0;
        }
        if (++i >= MT_N) {
            for (int l = 0; l < lanes; l++) r[l].mt[0] = r[l].mt[MT_N - 1];
            i = 1;
        }
    }
    for (int k = MT_N - 1; k; k--) {
#pragma GCC unroll 4
        for (int l = 0; l < lanes; l++) {
            uint32_t x = (r[l].mt[i] ^ ((prev[l] ^ (prev[l] >> 30)) * 1566083941U)) - (uint32_t)i;
            r[l].mt[i] = prev[l] = x;
        }
        if (++i >= MT_N) {
            for (int l = 0; l < lanes; l++) r[l].mt[0] = r[l].mt[MT_N - 1];
            i = 1;
        }
    }
    for (int l = 0; l < lanes; l++) {
        r[l].mt[0] = 0x80000000U;
        r[l].i = MT_N;
    }
}

static uint32_t mt_next(MT *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = r->mt, y;
    if (r->i >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->i = 0;
    }
    y = mt[r->i++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* randrange(n) for 1 < n < 2**32: getrandbits(n.bit_length()) (the top bits of one word) until below n. */
static int mt_below(MT *r, int n) {
    int k = 32 - __builtin_clz((unsigned)n);
    uint32_t x;
    do x = mt_next(r) >> (32 - k);
    while (x >= (uint32_t)n);
    return (int)x;
}

/* The 8 bits of a byte as 8 floats and as 8 bytes (0 or 1), to write a card mask 8 cards at a time. */
static float bit_floats[256][8];
static unsigned char bit_bytes[256][8];
static int bit_tables_ready;

static void bit_tables(void) {
    if (bit_tables_ready) return;
    for (int v = 0; v < 256; v++)
        for (int k = 0; k < 8; k++) {
            bit_floats[v][k] = (float)((v >> k) & 1);
            bit_bytes[v][k] = (unsigned char)((v >> k) & 1);
        }
    bit_tables_ready = 1;
}

enum { NODE_CALL = 0, NODE_PLAY = 1, NODE_SCORED = 2 };
#define BATCH_PAIRS 32

typedef struct {
    int kind;          /* NODE_CALL: a seat to act before the cards; NODE_PLAY: the cards start; NODE_SCORED */
    int seat, declarer;
    int nlegal, off;   /* the legal action indexes at legal[off ..], their children at child[off ..] (-1: not grown) */
    int npairs, poff;  /* the business pairs at pairpool[poff ..] */
    int tmpl;          /* NODE_PLAY: the trick play's start (rules, leader) in tmpls */
    int parent, via;   /* the node and action it was reached from (-1 for a root) */
    long final[MAXP];  /* NODE_SCORED: each seat's final points */
} Node;

typedef struct {
    int node;             /* where the game is in the tree (a NODE_PLAY node once its cards are played) */
    int pad;
    uint64_t legal;       /* in card play: the legal cards of the seat to act, as its row shows them */
    uint64_t dealt[MAXP]; /* the hands as dealt */
} BatchGame;

typedef struct {
    PyObject_HEAD
    int n, players, obs_size, actions, tricks_per_deal, direction, ndeck;
    double sign, unit;
    int deck[64];
    Model m;
    long long next_seed;
    TP *s;                  /* per game: its trick play when active */
    unsigned char *active;  /* per game: in card play */
    PairT *pairs;           /* BATCH_PAIRS per game */
    int *npairs;
    float *pairmat;         /* players * players per game: multiplier / 2 by (doubler, doubled) */
    BatchGame *games;
    int *order;             /* scratch: the games to deal, in order */
    MT pool[MT_LANES];      /* the generators of the next seeds, seeded ahead (see batch_deal) */
    long long pool_first;
    int pool_next;
    Node *nodes;
    int nnodes, capnodes;
    int *legal, *child;
    int nlegal, caplegal;
    PairT *pairpool;
    int npool, cappool;
    TP *tmpls;
    int ntmpl, captmpl;
    PyObject *model, *deckt; /* the score model and deck tuples, for pickling */
} TrickBatch;

static void batch_free_arrays(TrickBatch *self) {
    PyMem_Free(self->s);
    PyMem_Free(self->active);
    PyMem_Free(self->pairs);
    PyMem_Free(self->npairs);
    PyMem_Free(self->pairmat);
    PyMem_Free(self->games);
    PyMem_Free(self->order);
    PyMem_Free(self->nodes);
    PyMem_Free(self->legal);
    PyMem_Free(self->child);
    PyMem_Free(self->pairpool);
    PyMem_Free(self->tmpls);
    self->order = NULL;
    self->s = NULL;
    self->active = NULL;
    self->pairs = NULL;
    self->npairs = NULL;
    self->pairmat = NULL;
    self->games = NULL;
    self->nodes = NULL;
    self->legal = self->child = NULL;
    self->pairpool = NULL;
    self->tmpls = NULL;
    self->nnodes = self->capnodes = self->nlegal = self->caplegal = 0;
    self->npool = self->cappool = self->ntmpl = self->captmpl = 0;
}

static void batch_dealloc(TrickBatch *self) {
    Py_XDECREF(self->model);
    Py_XDECREF(self->deckt);
    batch_free_arrays(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* TrickBatch(n, players, model, actions, tricks_per_deal, sign, unit, direction, deck) */
static int batch_init(TrickBatch *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"n", "players", "model", "actions", "tricks_per_deal", "sign", "unit", "direction", "deck",
                         NULL};
    int n, players, actions, tpd, direction;
    PyObject *model, *deck;
    double sign, unit;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOiiddiO!", kw, &n, &players, &model, &actions, &tpd, &sign, &unit,
                                     &direction, &PyTuple_Type, &deck))
        return -1;
    if (n < 1 || players < 2 || players > MAXP || actions < 52 || tpd < 1 || tpd > MAXT || unit == 0.0 ||
        (direction != 1 && direction != -1)) {
        PyErr_SetString(PyExc_ValueError, "a batch needs 1 or more games of 2 to 6 seats, 52 or more actions, "
                                          "1 to 26 tricks, a direction of 1 or -1 and a non-zero unit");
        return -1;
    }
    Py_ssize_t nd = PyTuple_GET_SIZE(deck);
    uint64_t seen = 0;
    if (nd < players || nd > 52) goto bad_deck;
    for (Py_ssize_t k = 0; k < nd; k++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(deck, k));
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c > 51 || (seen >> c & 1)) goto bad_deck;
        seen |= 1ULL << c;
        self->deck[k] = (int)c;
    }
    if (unpack_model(model, &self->m) < 0) return -1;
    Py_XSETREF(self->model, Py_NewRef(model));
    Py_XSETREF(self->deckt, Py_NewRef(deck));
    batch_free_arrays(self);
    self->s = PyMem_Calloc((size_t)n, sizeof(TP));
    self->active = PyMem_Calloc((size_t)n, 1);
    self->pairs = PyMem_Calloc((size_t)n * BATCH_PAIRS, sizeof(PairT));
    self->npairs = PyMem_Calloc((size_t)n, sizeof(int));
    self->pairmat = PyMem_Calloc((size_t)n * players * players, sizeof(float));
    self->games = PyMem_Calloc((size_t)n, sizeof(BatchGame));
    self->order = PyMem_Calloc((size_t)n, sizeof(int));
    if (!self->s || !self->active || !self->pairs || !self->npairs || !self->pairmat || !self->games ||
        !self->order) {
        PyErr_NoMemory();
        return -1;
    }
    self->n = n;
    self->players = players;
    self->actions = actions;
    self->tricks_per_deal = tpd;
    self->direction = direction;
    self->ndeck = (int)nd;
    self->obs_size = 52 + (players - 1) * 52 + 52 + players + players * players + 2;
    self->sign = sign;
    self->unit = unit;
    self->next_seed = 0;
    self->pool_next = MT_LANES;
    bit_tables();
    return 0;
bad_deck:
    PyErr_SetString(PyExc_ValueError, "the deck is a tuple of distinct cards 0 to 51, at least one per seat");
    return -1;
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

static int batch_grow_array(void **arr, int *cap, int need, size_t item) {
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *p = PyMem_Realloc(*arr, (size_t)c * item);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    *arr = p;
    *cap = c;
    return 0;
}

static int batch_bad_node(void) {
    PyErr_SetString(PyExc_ValueError,
                    "a node is (kind 0, 1 or 2, seat, declarer, legal action indexes, pairs, packed trick play "
                    "start or final scores or None) as the core reads a deal");
    return -1;
}

/* Appends the node the core describes in `info` (see BatchEnv._node); returns its index. */
static int batch_add_node(TrickBatch *self, PyObject *info, int parent, int via) {
    if (!PyTuple_Check(info) || PyTuple_GET_SIZE(info) != 6) return batch_bad_node();
    long kind, seat, declarer;
    if (get_int(info, 0, &kind) < 0 || get_int(info, 1, &seat) < 0 || get_int(info, 2, &declarer) < 0) return -1;
    int p = self->players;
    PyObject *legal = PyTuple_GET_ITEM(info, 3), *pairs = PyTuple_GET_ITEM(info, 4), *extra = PyTuple_GET_ITEM(info, 5);
    if (kind < NODE_CALL || kind > NODE_SCORED || seat < 0 || seat >= p || declarer < 0 || declarer >= p ||
        !PyTuple_Check(legal) || (kind == NODE_CALL) != (PyTuple_GET_SIZE(legal) > 0))
        return batch_bad_node();
    Node nd;
    memset(&nd, 0, sizeof nd);
    nd.kind = (int)kind;
    nd.seat = (int)seat;
    nd.declarer = (int)declarer;
    nd.parent = parent;
    nd.via = via;
    nd.tmpl = -1;
    PairT pt[BATCH_PAIRS];
    if (unpack_pairs(pairs, pt, &nd.npairs, p) < 0) return -1;
    if (kind == NODE_PLAY) {
        TP t;
        if (unpack(extra, &t) < 0) return -1;
        if (t.players != p || t.finished || t.tlen || t.nwin || t.played || t.turn != t.leader ||
            t.tricks_total != self->tricks_per_deal) {
            PyErr_SetString(PyExc_ValueError, "a node's trick play must be the start of a deal of the batch's seats");
            return -1;
        }
        memset(t.hands, 0, sizeof t.hands); /* the rules and the leader: each game brings its hands */
        for (int k = 0; k < self->ntmpl; k++)
            if (!memcmp(&self->tmpls[k], &t, sizeof t)) nd.tmpl = k;
        if (nd.tmpl < 0) {
            if (batch_grow_array((void **)&self->tmpls, &self->captmpl, self->ntmpl + 1, sizeof(TP)) < 0) return -1;
            nd.tmpl = self->ntmpl;
            self->tmpls[self->ntmpl++] = t;
        }
    } else if (kind == NODE_SCORED) {
        if (!PyTuple_Check(extra) || PyTuple_GET_SIZE(extra) != p) return batch_bad_node();
        for (int k = 0; k < p; k++)
            if (get_int(extra, k, &nd.final[k]) < 0) return -1;
    } else if (extra != Py_None)
        return batch_bad_node();
    int nl = (int)PyTuple_GET_SIZE(legal);
    if (batch_grow_array((void **)&self->nodes, &self->capnodes, self->nnodes + 1, sizeof(Node)) < 0) return -1;
    int cap = self->caplegal;
    if (batch_grow_array((void **)&self->legal, &cap, self->nlegal + nl, sizeof(int)) < 0) return -1;
    cap = self->caplegal;
    if (batch_grow_array((void **)&self->child, &cap, self->nlegal + nl, sizeof(int)) < 0) return -1;
    self->caplegal = cap;
    if (batch_grow_array((void **)&self->pairpool, &self->cappool, self->npool + nd.npairs, sizeof(PairT)) < 0)
        return -1;
    nd.off = self->nlegal;
    for (int k = 0; k < nl; k++) {
        long a = PyLong_AsLong(PyTuple_GET_ITEM(legal, k));
        if (a == -1 && PyErr_Occurred()) return -1;
        if (a < 0 || a >= self->actions) {
            PyErr_SetString(PyExc_ValueError, "a node's legal action is out of the action encoding");
            return -1;
        }
        self->legal[nd.off + k] = (int)a;
        self->child[nd.off + k] = -1;
    }
    nd.nlegal = nl;
    self->nlegal += nl;
    nd.poff = self->npool;
    memcpy(self->pairpool + nd.poff, pt, sizeof(PairT) * (size_t)nd.npairs);
    self->npool += nd.npairs;
    self->nodes[self->nnodes] = nd;
    return self->nnodes++;
}

/* root(first, info): the node of a deal whose first declarer is `first`, added in seat order. */
static PyObject *batch_root(TrickBatch *self, PyObject *args) {
    int first;
    PyObject *info;
    if (!PyArg_ParseTuple(args, "iO", &first, &info)) return NULL;
    if (first != self->nnodes || first >= self->players) {
        PyErr_SetString(PyExc_ValueError, "the roots are added first, one per seat, in seat order");
        return NULL;
    }
    if (batch_add_node(self, info, -1, -1) < 0) return NULL;
    if (self->nodes[first].kind == NODE_SCORED) {
        self->nnodes--;
        PyErr_SetString(PyExc_ValueError, "a deal cannot be scored before anyone acts");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Game i reaches node k: its pairs are the node's, and its card play starts at a NODE_PLAY node. */
static void batch_enter(TrickBatch *self, int i, int k) {
    const Node *nd = &self->nodes[k];
    BatchGame *g = &self->games[i];
    int p = self->players;
    g->node = k;
    PairT *pt = self->pairs + BATCH_PAIRS * (size_t)i;
    memcpy(pt, self->pairpool + nd->poff, sizeof(PairT) * (size_t)nd->npairs);
    self->npairs[i] = nd->npairs;
    float *mat = self->pairmat + (size_t)i * p * p;
    for (int x = 0; x < p * p; x++) mat[x] = 0.0f;
    for (int x = 0; x < nd->npairs; x++) mat[pt[x].a * p + pt[x].b] = (float)((double)pt[x].m / 2.0);
    if (nd->kind != NODE_PLAY) {
        self->active[i] = 0;
        return;
    }
    TP *s = &self->s[i];
    *s = self->tmpls[nd->tmpl];
    memcpy(s->hands, g->dealt, sizeof(uint64_t) * (size_t)p);
    s->tricks_total = __builtin_popcountll(g->dealt[0]);
    self->active[i] = 1;
}

/* barbu.game.Dealer.deal(rules, declarer) from generator r: the deck of nd cards shuffled (one
 * random() per card, the cards sorted by their draws, stably) and dealt one card at a time from
 * the declarer in the direction `step`, into out[0 .. p). */
/* Puts `key` in place among the `c` sorted keys before it (an insertion sort: a deck is short). */
static void insert_key(uint64_t *keys, int c, uint64_t key) {
    int j = c;
    while (j > 0 && keys[j - 1] > key) {
        keys[j] = keys[j - 1];
        j--;
    }
    keys[j] = key;
}

/* Deals the deck in the order of the sorted keys (each a card's place in the deck in its low 6 bits)
 * one card at a time from the declarer, as Dealer.deal deals. */
static void deal_sorted(const uint64_t *keys, int p, int nd, const int *deck, int declarer, int step,
                        uint64_t *out) {
    memset(out, 0, sizeof(uint64_t) * (size_t)p);
    int seat = declarer;
    for (int k = 0; k < nd; k++) { /* seat (declarer + direction * (k mod p)) mod p */
        out[seat] |= 1ULL << deck[keys[k] & 63];
        seat = k % p == p - 1 ? declarer : (seat + step + p) % p;
    }
}

static void deal_cards(MT *r, int p, int nd, const int *deck, int declarer, int step, uint64_t *out) {
    uint64_t keys[64]; /* each card's draw (53 bits) then its place in the deck (6 bits): a stable sort */
    for (int c = 0; c < nd; c++) {
        uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6; /* random(): (a * 2**26 + b) / 2**53 */
        insert_key(keys, c, ((((uint64_t)a << 26) | b) << 6) | (uint64_t)c);
    }
    deal_sorted(keys, p, nd, deck, declarer, step, out);
}

/* Deals game i from generator r, as barbu.game.Dealer does (see the top of this section). */
static void batch_deal_from(TrickBatch *self, int i, MT *r) {
    int first = mt_below(r, self->players);
    BatchGame *g = &self->games[i];
    memset(g->dealt, 0, sizeof g->dealt);
    deal_cards(r, self->players, self->ndeck, self->deck, self->nodes[first].declarer, self->direction, g->dealt);
    batch_enter(self, i, first);
}

/* Deals the `count` games listed, in that order, from the next seeds. The generators are seeded
 * MT_LANES seeds at a time, ahead: pool[k] is the generator of seed pool_first + k, unused from
 * pool_next on. */
static void batch_deal(TrickBatch *self, const int *games, int count) {
    for (int at = 0; at < count; at++) {
        long long seed = self->next_seed++;
        if (self->pool_next >= MT_LANES || seed != self->pool_first + self->pool_next) {
            uint64_t seeds[MT_LANES];
            for (int l = 0; l < MT_LANES; l++) {
                long long s = seed + l;
                seeds[l] = s < 0 ? 0 - (uint64_t)s : (uint64_t)s;
            }
            mt_seed_lanes(self->pool, seeds, MT_LANES);
            self->pool_first = seed;
            self->pool_next = 0;
        }
        batch_deal_from(self, games[at], &self->pool[self->pool_next++]);
    }
}

/* The pairs seen from `seat`: entry (a, b) is the matrix's (seat + a, seat + b), seats mod p. */
static void batch_pair_row(const TrickBatch *self, int i, int seat, float *pr) {
    int p = self->players, rot[MAXP];
    const float *mat = self->pairmat + (size_t)i * p * p;
    for (int a = 0; a < p; a++) rot[a] = a + seat < p ? a + seat : a + seat - p;
    for (int a = 0; a < p; a++) {
        const float *from = mat + rot[a] * p;
        for (int b = 0; b < p; b++) pr[a * p + b] = from[rot[b]];
    }
}

/* out[c] = 1.0 or 0.0 for the cards c = 0..51 in or out of m. */
static void cards_as_floats(float *out, uint64_t m) {
    for (int b = 0; b < 6; b++) memcpy(out + 8 * b, bit_floats[(m >> (8 * b)) & 255], 8 * sizeof(float));
    memcpy(out + 48, bit_floats[(m >> 48) & 15], 4 * sizeof(float));
}

/* The row, mask and seat to act of game i, in card play or before it; every entry written. */
static void batch_row(TrickBatch *self, int i, float *obs, unsigned char *mask, int64_t *to_act) {
    int p = self->players;
    float *row = obs + (size_t)i * self->obs_size;
    unsigned char *mrow = mask + (size_t)i * self->actions;
    float *wr = row + 52 * (p + 1), *pr = wr + p;
    if (!self->active[i]) {
        const Node *nd = &self->nodes[self->games[i].node];
        int seat = nd->seat;
        cards_as_floats(row, self->games[i].dealt[seat]);
        memset(row + 52, 0, sizeof(float) * (size_t)(52 * p + p)); /* no trick, nothing played, no trick won */
        batch_pair_row(self, i, seat, pr);
        pr[p * p] = 1.0f;
        pr[p * p + 1] = 0.0f;
        memset(mrow, 0, (size_t)self->actions);
        for (int k = 0; k < nd->nlegal; k++) mrow[self->legal[nd->off + k]] = 1;
        to_act[i] = seat;
        return;
    }
    const TP *s = &self->s[i];
    int seat = s->turn;
    cards_as_floats(row, s->hands[seat]);
    memset(row + 52, 0, sizeof(float) * (size_t)(52 * (p - 1)));
    uint64_t in_trick = 0;
    for (int k = 0; k < s->tlen; k++) {
        int slot = k - s->tlen + p - 1; /* the seat k places before the one to act, minus one */
        row[52 + 52 * slot + s->trick[k]] = 1.0f;
        in_trick |= 1ULL << s->trick[k];
    }
    cards_as_floats(row + 52 * p, s->played & ~in_trick);
    int won[MAXP] = {0}; /* small counts: as exact as the pure path's float sums */
    for (int k = 0; k < s->nwin; k++) won[s->winners[k] >= seat ? s->winners[k] - seat : s->winners[k] - seat + p]++;
    for (int k = 0; k < p; k++) wr[k] = (float)won[k] / (float)self->tricks_per_deal;
    batch_pair_row(self, i, seat, pr);
    pr[p * p] = 0.0f;
    pr[p * p + 1] = 1.0f;
    uint64_t legal = legal_for(s, s->hands[seat], s->trick, s->tlen, s->played);
    self->games[i].legal = legal;
    for (int b = 0; b < 6; b++) memcpy(mrow + 8 * b, bit_bytes[(legal >> (8 * b)) & 255], 8);
    memcpy(mrow + 48, bit_bytes[(legal >> 48) & 15], 4);
    memset(mrow + 52, 0, (size_t)(self->actions - 52));
    to_act[i] = seat;
}

static int batch_ready(TrickBatch *self) {
    if (!self->games || self->nnodes < self->players) {
        PyErr_SetString(PyExc_ValueError, "the batch needs its roots, one per seat, before it deals");
        return -1;
    }
    return 0;
}

/* reset(seed, obs, masks, to_act): deals every game, game i from seed + i, and writes its row. */
static PyObject *batch_reset(TrickBatch *self, PyObject *args) {
    long long seed;
    PyObject *oo, *mo, *to;
    if (!PyArg_ParseTuple(args, "LOOO", &seed, &oo, &mo, &to)) return NULL;
    if (batch_ready(self) < 0) return NULL;
    if (seed > (1LL << 62) || seed < -(1LL << 62)) {
        PyErr_SetString(PyExc_ValueError, "the batch's seeds are integers from -2**62 to 2**62");
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
    self->next_seed = seed;
    for (int i = 0; i < self->n; i++) self->order[i] = i;
    batch_deal(self, self->order, self->n);
    for (int i = 0; i < self->n; i++) batch_row(self, i, o.buf, mk.buf, t.buf);
    PyBuffer_Release(&t);
    PyBuffer_Release(&mk);
    PyBuffer_Release(&o);
    Py_RETURN_NONE;
}

/* The position of action a among node k's legal actions, or -1. */
static int batch_find(const TrickBatch *self, int k, int64_t a) {
    const Node *nd = &self->nodes[k];
    for (int x = 0; x < nd->nlegal; x++)
        if (self->legal[nd->off + x] == a) return x;
    return -1;
}

/* step(actions, obs, masks, rewards, done, to_act, grow) -> how many games ended.
 * Checks every game's action first (a legal card in card play, one of the node's legal actions
 * before it; else ValueError naming the game, before any game moves), growing the nodes not met
 * yet with grow(node, action, index) -> the child node as the core describes it; then moves every
 * game: its card played or its node's child entered; a game that ends gets its rewards (the
 * sign times its final points over the unit) and its done flag, and is dealt again. Every entry
 * of every array is written (rewards 0 and done 0 for the games that go on), so the caller may
 * give new arrays without clearing them, or the same ones at every step. */
static PyObject *batch_step(TrickBatch *self, PyObject *args) {
    PyObject *ao, *oo, *mo, *ro, *dono, *to, *grow;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &ao, &oo, &mo, &ro, &dono, &to, &grow)) return NULL;
    if (batch_ready(self) < 0) return NULL;
    int n = self->n, p = self->players, ended = 0;
    Py_buffer a, o, mk, r, d, t;
    if (batch_buffer(ao, &a, n, 8, "qlQL", "actions") < 0) return NULL;
    if (batch_buffer(oo, &o, (Py_ssize_t)n * self->obs_size, 4, "f", "observations") < 0) goto f1;
    if (batch_buffer(mo, &mk, (Py_ssize_t)n * self->actions, 1, "?bB", "masks") < 0) goto f2;
    if (batch_buffer(ro, &r, (Py_ssize_t)n * p, 4, "f", "rewards") < 0) goto f3;
    if (batch_buffer(dono, &d, n, 1, "?bB", "done") < 0) goto f4;
    if (batch_buffer(to, &t, n, 8, "qlQL", "to_act") < 0) goto f5;
    const int64_t *act = a.buf;
    for (int i = 0; i < n; i++) {
        int64_t c = act[i];
        if (self->active[i]) {
            if (c < 0 || c > 51 || !((self->games[i].legal >> c) & 1)) goto illegal;
            continue;
        }
        int k = self->games[i].node, x = batch_find(self, k, c);
        if (x < 0) goto illegal;
        if (self->child[self->nodes[k].off + x] >= 0) continue;
        PyObject *info = PyObject_CallFunction(grow, "iLi", k, (long long)c, self->nnodes);
        if (!info) goto f6;
        int id = batch_add_node(self, info, k, (int)c);
        Py_DECREF(info);
        if (id < 0) goto f6;
        self->child[self->nodes[k].off + x] = id;
        continue;
    illegal:
        PyErr_Format(PyExc_ValueError, "action %lld is not legal in game %d", (long long)c, i);
        goto f6;
    }
    float *obs = o.buf, *rew = r.buf;
    unsigned char *masks = mk.buf, *done = d.buf;
    int64_t *to_act = t.buf;
    for (int i = 0; i < n; i++) {
        long fin[MAXP];
        memset(rew + (size_t)i * p, 0, sizeof(float) * (size_t)p);
        done[i] = 0;
        if (self->active[i]) {
            TP *s = &self->s[i];
            play(s, (int)act[i]);
            if (!s->finished) {
                batch_row(self, i, obs, masks, to_act);
                continue;
            }
            final_scores(s, &self->m, self->pairs + BATCH_PAIRS * (size_t)i, self->npairs[i], fin);
        } else {
            int k = self->games[i].node;
            int child = self->child[self->nodes[k].off + batch_find(self, k, act[i])];
            if (self->nodes[child].kind != NODE_SCORED) {
                batch_enter(self, i, child);
                batch_row(self, i, obs, masks, to_act);
                continue;
            }
            memcpy(fin, self->nodes[child].final, sizeof fin);
        }
        for (int k = 0; k < p; k++) rew[(size_t)i * p + k] = (float)(self->sign * (double)fin[k] / self->unit);
        done[i] = 1;
        self->order[ended++] = i;
    }
    batch_deal(self, self->order, ended); /* the next seeds in game order, as the pure path deals them */
    for (int k = 0; k < ended; k++) batch_row(self, self->order[k], obs, masks, to_act);
    PyBuffer_Release(&t);
    PyBuffer_Release(&d);
    PyBuffer_Release(&r);
    PyBuffer_Release(&mk);
    PyBuffer_Release(&o);
    PyBuffer_Release(&a);
    return PyLong_FromLong(ended);
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

static int batch_index(TrickBatch *self, PyObject *arg, long *i) {
    *i = PyLong_AsLong(arg);
    if (*i == -1 && PyErr_Occurred()) return -1;
    if (!self->games || *i < 0 || *i >= self->n) {
        PyErr_SetString(PyExc_ValueError, "the game index is out of range");
        return -1;
    }
    return 0;
}

static PyObject *batch_is_active(TrickBatch *self, PyObject *arg) {
    long i;
    if (batch_index(self, arg, &i) < 0) return NULL;
    return PyBool_FromLong(self->active[i]);
}

/* dealt(i) -> game i's hands as dealt. */
static PyObject *batch_dealt(TrickBatch *self, PyObject *arg) {
    long i;
    if (batch_index(self, arg, &i) < 0) return NULL;
    return mask_tuple(self->games[i].dealt, self->players);
}

/* path(k) -> (the root, the actions from it to node k): what the core replays to rebuild node k's deal. */
static PyObject *batch_path(TrickBatch *self, PyObject *arg) {
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return NULL;
    if (k < 0 || k >= self->nnodes) {
        PyErr_SetString(PyExc_ValueError, "the node index is out of range");
        return NULL;
    }
    int depth = 0;
    for (long x = k; self->nodes[x].parent >= 0; x = self->nodes[x].parent) depth++;
    PyObject *acts = PyTuple_New(depth);
    if (!acts) return NULL;
    long x = k;
    for (int j = depth - 1; j >= 0; j--, x = self->nodes[x].parent) {
        PyObject *v = PyLong_FromLong(self->nodes[x].via);
        if (!v) {
            Py_DECREF(acts);
            return NULL;
        }
        PyTuple_SET_ITEM(acts, j, v);
    }
    return Py_BuildValue("lN", x, acts);
}

static void *batch_copy_out(const char *from, size_t size) {
    void *p = PyMem_Malloc(size ? size : 1);
    if (p) memcpy(p, from, size);
    return p;
}

/* adopt(other): this batch's calls become a copy of those `other` (a batch of the same rules, its
 * nodes grown by the same core) has met, so that a new batch of a task need not ask the core again. */
static PyObject *batch_adopt(TrickBatch *self, PyObject *arg) {
    if (!PyObject_TypeCheck(arg, Py_TYPE(self))) {
        PyErr_SetString(PyExc_TypeError, "adopt takes another TrickBatch");
        return NULL;
    }
    TrickBatch *o = (TrickBatch *)arg;
    if (o == self) Py_RETURN_NONE;
    int same = self->games && o->games && o->players == self->players && o->actions == self->actions &&
               o->tricks_per_deal == self->tricks_per_deal && o->direction == self->direction &&
               o->ndeck == self->ndeck && !memcmp(o->deck, self->deck, sizeof(int) * (size_t)self->ndeck) &&
               !memcmp(&o->m, &self->m, sizeof(Model)) && o->nnodes >= self->players &&
               self->nnodes >= self->players;
    for (int k = 0; same && k < self->players; k++) {
        const Node *a = &self->nodes[k], *b = &o->nodes[k];
        same = a->kind == b->kind && a->seat == b->seat && a->declarer == b->declarer && a->nlegal == b->nlegal &&
               !memcmp(self->legal + a->off, o->legal + b->off, sizeof(int) * (size_t)a->nlegal);
    }
    if (!same) {
        PyErr_SetString(PyExc_ValueError, "adopt takes a batch of the same rules, contract and roots");
        return NULL;
    }
    void *nodes = batch_copy_out((const char *)o->nodes, sizeof(Node) * (size_t)o->nnodes);
    void *legal = batch_copy_out((const char *)o->legal, sizeof(int) * (size_t)o->nlegal);
    void *child = batch_copy_out((const char *)o->child, sizeof(int) * (size_t)o->nlegal);
    void *pool = batch_copy_out((const char *)o->pairpool, sizeof(PairT) * (size_t)o->npool);
    void *tmpls = batch_copy_out((const char *)o->tmpls, sizeof(TP) * (size_t)o->ntmpl);
    if (!nodes || !legal || !child || !pool || !tmpls) {
        PyMem_Free(nodes);
        PyMem_Free(legal);
        PyMem_Free(child);
        PyMem_Free(pool);
        PyMem_Free(tmpls);
        return PyErr_NoMemory();
    }
    PyMem_Free(self->nodes);
    PyMem_Free(self->legal);
    PyMem_Free(self->child);
    PyMem_Free(self->pairpool);
    PyMem_Free(self->tmpls);
    self->nodes = nodes;
    self->legal = legal;
    self->child = child;
    self->pairpool = pool;
    self->tmpls = tmpls;
    self->nnodes = self->capnodes = o->nnodes;
    self->nlegal = self->caplegal = o->nlegal;
    self->npool = self->cappool = o->npool;
    self->ntmpl = self->captmpl = o->ntmpl;
    Py_RETURN_NONE;
}

/* Byte sizes of the arrays __reduce__ writes, in order. */
#define BATCH_PARTS 11
static void batch_sizes(const TrickBatch *b, size_t *sz) {
    size_t n = (size_t)b->n, p = (size_t)b->players;
    sz[0] = n * sizeof(TP);
    sz[1] = n;
    sz[2] = n * BATCH_PAIRS * sizeof(PairT);
    sz[3] = n * sizeof(int);
    sz[4] = n * p * p * sizeof(float);
    sz[5] = n * sizeof(BatchGame);
    sz[6] = (size_t)b->nnodes * sizeof(Node);
    sz[7] = (size_t)b->nlegal * sizeof(int);
    sz[8] = (size_t)b->nlegal * sizeof(int);
    sz[9] = (size_t)b->npool * sizeof(PairT);
    sz[10] = (size_t)b->ntmpl * sizeof(TP);
}

static void batch_parts(TrickBatch *b, void **parts) {
    void *v[BATCH_PARTS] = {b->s,    b->active, b->pairs, b->npairs,   b->pairmat, b->games,
                            b->nodes, b->legal, b->child, b->pairpool, b->tmpls};
    memcpy(parts, v, sizeof v);
}

/* __reduce__: (type, the constructor's arguments, (the next seed, bytes of each array)). */
static PyObject *batch_reduce(TrickBatch *self, PyObject *unused) {
    if (!self->games) {
        PyErr_SetString(PyExc_ValueError, "a TrickBatch that was never set up cannot be pickled");
        return NULL;
    }
    size_t sz[BATCH_PARTS];
    void *parts[BATCH_PARTS];
    batch_sizes(self, sz);
    batch_parts(self, parts);
    PyObject *state = PyTuple_New(BATCH_PARTS + 1);
    if (!state) return NULL;
    PyObject *seed = PyLong_FromLongLong(self->next_seed);
    if (!seed) goto fail;
    PyTuple_SET_ITEM(state, 0, seed);
    for (int k = 0; k < BATCH_PARTS; k++) {
        PyObject *bytes = PyBytes_FromStringAndSize(parts[k] ? parts[k] : "", (Py_ssize_t)sz[k]);
        if (!bytes) goto fail;
        PyTuple_SET_ITEM(state, k + 1, bytes);
    }
    return Py_BuildValue("O(iiOiiddiO)N", (PyObject *)Py_TYPE(self), self->n, self->players, self->model,
                         self->actions, self->tricks_per_deal, self->sign, self->unit, self->direction, self->deckt,
                         state);
fail:
    Py_DECREF(state);
    return NULL;
}

/* A game's trick play read back from a pickle is checked as unpack checks a packed state. */
static int batch_game_ok(const TrickBatch *b, const TP *s, const PairT *pairs, int np) {
    int p = b->players;
    if (s->players != p || (s->direction != 1 && s->direction != -1) || s->trump < -1 || s->trump > 3 ||
        s->tricks_total != b->tricks_per_deal || s->leader < 0 || s->leader >= p || s->turn < 0 || s->turn >= p ||
        s->tlen < 0 || s->tlen >= p || s->nwin < 0 || s->nwin > s->tricks_total || s->finished || np < 0 ||
        np > BATCH_PAIRS)
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

/* The node tree read back from a pickle: every index in range, each node as batch_add_node makes it. */
static int batch_tree_ok(const TrickBatch *b, const Node *nodes, int nnodes, const int *legal, const int *child,
                         int nlegal, const PairT *pool, int npool, const TP *tmpls, int ntmpl) {
    int p = b->players;
    if (nnodes < p) return 0;
    for (int k = 0; k < ntmpl; k++) {
        TP t = tmpls[k];
        memcpy(t.hands, (uint64_t[MAXP]){0}, sizeof t.hands);
        if (t.players != p || (t.direction != 1 && t.direction != -1) || t.trump < -1 || t.trump > 3 ||
            t.tricks_total != b->tricks_per_deal || t.leader < 0 || t.leader >= p || t.turn != t.leader || t.tlen ||
            t.nwin || t.played || t.finished || ((t.penalty | t.early_end) >> 52))
            return 0;
    }
    for (int k = 0; k < nnodes; k++) {
        const Node *nd = &nodes[k];
        if (nd->kind < NODE_CALL || nd->kind > NODE_SCORED || nd->seat < 0 || nd->seat >= p || nd->declarer < 0 ||
            nd->declarer >= p || nd->nlegal < 0 || nd->off < 0 || nd->off > nlegal - nd->nlegal ||
            (nd->kind == NODE_CALL) != (nd->nlegal > 0) || nd->npairs < 0 || nd->npairs > BATCH_PAIRS ||
            nd->poff < 0 || nd->poff > npool - nd->npairs || (nd->kind == NODE_PLAY && (nd->tmpl < 0 || nd->tmpl >= ntmpl)) ||
            (k < p ? nd->parent != -1 || nd->kind == NODE_SCORED : nd->parent < 0 || nd->parent >= k))
            return 0;
        for (int x = 0; x < nd->npairs; x++) {
            const PairT *pt = &pool[nd->poff + x];
            if (pt->a < 0 || pt->a >= p || pt->b < 0 || pt->b >= p) return 0;
        }
    }
    for (int x = 0; x < nlegal; x++)
        if (legal[x] < 0 || legal[x] >= b->actions || child[x] < -1 || child[x] >= nnodes) return 0;
    return 1;
}

static PyObject *batch_setstate(TrickBatch *self, PyObject *state) {
    if (!self->games || !PyTuple_Check(state) || PyTuple_GET_SIZE(state) != BATCH_PARTS + 1) goto bad;
    for (int k = 1; k <= BATCH_PARTS; k++)
        if (!PyBytes_Check(PyTuple_GET_ITEM(state, k))) goto bad;
    long long seed = PyLong_AsLongLong(PyTuple_GET_ITEM(state, 0));
    if (seed == -1 && PyErr_Occurred()) return NULL;
    if (seed > (3LL << 61) || seed < -(3LL << 61)) goto bad; /* what seeds from +-2**62 on reach */
    const char *at[BATCH_PARTS];
    size_t got[BATCH_PARTS];
    for (int k = 0; k < BATCH_PARTS; k++) {
        at[k] = PyBytes_AS_STRING(PyTuple_GET_ITEM(state, k + 1));
        got[k] = (size_t)PyBytes_GET_SIZE(PyTuple_GET_ITEM(state, k + 1));
    }
    size_t sz[BATCH_PARTS];
    batch_sizes(self, sz);
    for (int k = 0; k < 6; k++)
        if (got[k] != sz[k]) goto misfit;
    if (got[6] % sizeof(Node) || got[7] % sizeof(int) || got[8] != got[7] || got[9] % sizeof(PairT) ||
        got[10] % sizeof(TP) || got[6] / sizeof(Node) > INT32_MAX || got[7] / sizeof(int) > INT32_MAX ||
        got[9] / sizeof(PairT) > INT32_MAX || got[10] / sizeof(TP) > INT32_MAX)
        goto misfit;
    int nnodes = (int)(got[6] / sizeof(Node)), nlegal = (int)(got[7] / sizeof(int));
    int npool = (int)(got[9] / sizeof(PairT)), ntmpl = (int)(got[10] / sizeof(TP));
    void *copies[BATCH_PARTS];
    for (int k = 0; k < BATCH_PARTS; k++) copies[k] = batch_copy_out(at[k], got[k]);
    for (int k = 0; k < BATCH_PARTS; k++)
        if (!copies[k]) {
            for (int j = 0; j < BATCH_PARTS; j++) PyMem_Free(copies[j]);
            return PyErr_NoMemory();
        }
    const TP *s = copies[0];
    const unsigned char *active = copies[1];
    const PairT *pairs = copies[2];
    const int *npairs = copies[3];
    const BatchGame *games = copies[5];
    const Node *nodes = copies[6];
    int bad_game = -1;
    if (!batch_tree_ok(self, nodes, nnodes, copies[7], copies[8], nlegal, copies[9], npool, copies[10], ntmpl))
        bad_game = -2;
    for (int i = 0; i < self->n && bad_game == -1; i++) {
        int k = games[i].node;
        int ok = k >= 0 && k < nnodes && active[i] <= 1 &&
                 nodes[k].kind == (active[i] ? NODE_PLAY : NODE_CALL);
        for (int x = 0; ok && x < self->players; x++) ok = !(games[i].dealt[x] >> 52);
        if (ok && active[i]) ok = batch_game_ok(self, &s[i], pairs + BATCH_PAIRS * (size_t)i, npairs[i]);
        if (!ok) bad_game = i;
    }
    if (bad_game != -1) {
        for (int j = 0; j < BATCH_PARTS; j++) PyMem_Free(copies[j]);
        if (bad_game == -2)
            PyErr_SetString(PyExc_ValueError, "a TrickBatch's state holds calls the core could not make");
        else
            PyErr_Format(PyExc_ValueError, "a TrickBatch's state holds a game %d the core could not make", bad_game);
        return NULL;
    }
    PyMem_Free(self->s);
    PyMem_Free(self->active);
    PyMem_Free(self->pairs);
    PyMem_Free(self->npairs);
    PyMem_Free(self->pairmat);
    PyMem_Free(self->games);
    PyMem_Free(self->nodes);
    PyMem_Free(self->legal);
    PyMem_Free(self->child);
    PyMem_Free(self->pairpool);
    PyMem_Free(self->tmpls);
    self->s = copies[0];
    self->active = copies[1];
    self->pairs = copies[2];
    self->npairs = copies[3];
    self->pairmat = copies[4];
    self->games = copies[5];
    self->nodes = copies[6];
    self->legal = copies[7];
    self->child = copies[8];
    self->pairpool = copies[9];
    self->tmpls = copies[10];
    self->nnodes = self->capnodes = nnodes;
    self->nlegal = self->caplegal = nlegal;
    self->npool = self->cappool = npool;
    self->ntmpl = self->captmpl = ntmpl;
    self->next_seed = seed;
    self->pool_next = MT_LANES;
    for (int i = 0; i < self->n; i++) {
        const TP *t = &self->s[i];
        self->games[i].legal = self->active[i] ? legal_for(t, t->hands[t->turn], t->trick, t->tlen, t->played) : 0;
    }
    Py_RETURN_NONE;
misfit:
    PyErr_SetString(PyExc_ValueError, "a TrickBatch's state does not fit its number of games and seats");
    return NULL;
bad:
    PyErr_SetString(PyExc_ValueError, "a TrickBatch's state is the tuple its __reduce__ wrote");
    return NULL;
}

static PyMethodDef batch_methods[] = {
    {"root", (PyCFunction)batch_root, METH_VARARGS, "root(first, node): the node of a deal with this first declarer"},
    {"reset", (PyCFunction)batch_reset, METH_VARARGS, "reset(seed, obs, masks, to_act): deal every game"},
    {"step", (PyCFunction)batch_step, METH_VARARGS,
     "step(actions, obs, masks, rewards, done, to_act, grow) -> how many games ended"},
    {"active", (PyCFunction)batch_is_active, METH_O, "active(i) -> whether game i is in its card play"},
    {"dealt", (PyCFunction)batch_dealt, METH_O, "dealt(i) -> game i's hands as dealt"},
    {"path", (PyCFunction)batch_path, METH_O, "path(node) -> (root, the actions from the root to the node)"},
    {"adopt", (PyCFunction)batch_adopt, METH_O, "adopt(other): copy the calls another batch of the same rules met"},
    {"__reduce__", (PyCFunction)batch_reduce, METH_NOARGS, "pickles the batch with its games and calls"},
    {"__setstate__", (PyCFunction)batch_setstate, METH_O, "restores what a pickle holds (checked)"},
    {NULL, NULL, 0, NULL},
};

static PyObject *batch_get_nodes(TrickBatch *self, void *closure) { return PyLong_FromLong(self->nnodes); }

static PyGetSetDef batch_getset[] = {
    {"nodes", (getter)batch_get_nodes, NULL, "how many nodes of the calls the core has described so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TrickBatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "barbu._native.TrickBatch",
    .tp_basicsize = sizeof(TrickBatch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A batch of trick deals from their seeded deal to their scores, stepped together into NumPy buffers.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)batch_init,
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
};

/* ==== END the batch simulator ==== */

/* Shuffler(seed): barbu.game.Dealer(seed)'s generator for an int seed with |seed| < 2**64 (the
 * batch simulator's mirror of random.Random), dealing as Dealer.deal does (deal_cards). */
typedef struct {
    PyObject_HEAD
    MT r;
} Shuffler;

static int shuffler_init(Shuffler *self, PyObject *args, PyObject *kwds) {
    PyObject *seed_o;
    if (!PyArg_ParseTuple(args, "O!", &PyLong_Type, &seed_o)) return -1;
    PyObject *mag = PyNumber_Absolute(seed_o);
    if (!mag) return -1;
    uint64_t seed = PyLong_AsUnsignedLongLong(mag);
    Py_DECREF(mag);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "a shuffler's seed is an int from -(2**64 - 1) to 2**64 - 1");
        return -1;
    }
    mt_seed_lanes(&self->r, &seed, 1);
    return 0;
}

/* Reads deal's (players, deck, direction, declarer) from args; -1 with an exception set if they are not
 * 2 to 6 seats, a tuple of at most 52 distinct cards 0-51, a direction of 1 or -1 and a seat. */
static int deal_args(PyObject *const *args, int *p, int *nd, int *deck, int *direction, int *declarer) {
    if (!PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "a deal's deck is a tuple of cards");
        return -1;
    }
    long lp = PyLong_AsLong(args[0]), ldir = PyLong_AsLong(args[2]), ldecl = PyLong_AsLong(args[3]);
    if (PyErr_Occurred()) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(args[1]);
    if (lp < 2 || lp > MAXP || (ldir != 1 && ldir != -1) || ldecl < 0 || ldecl >= lp || n > 52) {
        PyErr_SetString(PyExc_ValueError, "a deal needs 2 to 6 seats, a direction of 1 or -1, a declarer among the "
                                          "seats and at most 52 cards");
        return -1;
    }
    uint64_t seen = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(args[1], k));
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c > 51 || (seen >> c & 1)) {
            PyErr_SetString(PyExc_ValueError, "the deck is a tuple of distinct cards 0 to 51");
            return -1;
        }
        seen |= 1ULL << c;
        deck[k] = (int)c;
    }
    *p = (int)lp, *nd = (int)n, *direction = (int)ldir, *declarer = (int)ldecl;
    return 0;
}

static PyObject *hands_list(const uint64_t *hands, int p) {
    PyObject *out = PyList_New(p);
    if (!out) return NULL;
    for (int k = 0; k < p; k++) {
        PyObject *h = PyLong_FromUnsignedLongLong(hands[k]);
        if (!h) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, h);
    }
    return out;
}

/* deal(players, deck, direction, declarer) -> the hands Dealer.deal(rules, declarer) deals next. */
static PyObject *shuffler_deal(Shuffler *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "deal(players, deck, direction, declarer) takes 4 arguments");
        return NULL;
    }
    int p, nd, direction, declarer, deck[64];
    if (deal_args(args, &p, &nd, deck, &direction, &declarer) < 0) return NULL;
    uint64_t hands[MAXP];
    deal_cards(&self->r, p, nd, deck, declarer, direction, hands);
    return hands_list(hands, p);
}

/* below(n) -> randrange(n) for 2 <= n <= 6 (Dealer.first_declarer). */
static PyObject *shuffler_below(Shuffler *self, PyObject *arg) {
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 2 || n > MAXP) {
        PyErr_SetString(PyExc_ValueError, "below(n) takes n from 2 to 6");
        return NULL;
    }
    return PyLong_FromLong(mt_below(&self->r, (int)n));
}

static PyMethodDef shuffler_methods[] = {
    {"deal", (PyCFunction)(void (*)(void))shuffler_deal, METH_FASTCALL,
     "deal(players, deck, direction, declarer) -> the hands barbu.game.Dealer.deal deals next"},
    {"below", (PyCFunction)shuffler_below, METH_O, "below(n) -> randrange(n), as Dealer.first_declarer draws it"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ShufflerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "barbu._native.Shuffler",
    .tp_basicsize = sizeof(Shuffler),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Shuffler(seed): the generator of barbu.game.Dealer(seed) for an int seed, dealing as it does",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)shuffler_init,
    .tp_methods = shuffler_methods,
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

/* deal_drawn(random, players, deck, direction, declarer) -> the hands Dealer.deal deals from a
 * generator whose random method is `random`: called once per card of the deck, in order, as Dealer.deal
 * calls it, the deck sorted by the draws (stably: equal draws keep the deck's order) and dealt one card
 * at a time from the declarer. A draw of random() is k / 2**53 for a whole k, kept exactly as k. */
static PyObject *py_deal_drawn(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "deal_drawn(random, players, deck, direction, declarer) takes 5 arguments");
        return NULL;
    }
    int p, nd, direction, declarer, deck[64];
    if (deal_args(args + 1, &p, &nd, deck, &direction, &declarer) < 0) return NULL;
    uint64_t keys[64];
    for (int c = 0; c < nd; c++) {
        PyObject *f = PyObject_CallNoArgs(args[0]);
        if (!f) return NULL;
        double x = PyFloat_AsDouble(f);
        Py_DECREF(f);
        if (x == -1.0 && PyErr_Occurred()) return NULL;
        double k = x * 9007199254740992.0; /* 2**53 */
        if (!(k >= 0.0 && k < 9007199254740992.0) || k != (double)(uint64_t)k) {
            PyErr_SetString(PyExc_ValueError, "deal_drawn's random() must return k / 2**53 for a whole k, as random.Random does");
            return NULL;
        }
        insert_key(keys, c, ((uint64_t)k << 6) | (uint64_t)c);
    }
    uint64_t hands[MAXP];
    deal_sorted(keys, p, nd, deck, declarer, direction, hands);
    return hands_list(hands, p);
}

/* ---- sample_hands and deal_order: a world of the unseen cards ----------------------------
 *
 * barbu.unseen.sample_hands' greedy deal (its pure reference) and the order
 * barbu.research.openspiel_game deals a world's hands in, drawing from a random.Random's
 * getrandbits exactly as the Python code draws (shuffle and randrange through
 * _randbelow_with_getrandbits): the same generator gives the same deal and leaves the
 * generator in the same state (tests/test_native.py). */

/* rng.shuffle(x) on x[0..n). */
static int shuffle_ints(PyObject *getrandbits, PyObject *bits32, int *x, int n) {
    for (int i = n - 1; i >= 1; i--) {
        unsigned long j;
        if (draw_below(getrandbits, bits32, (unsigned long)(i + 1), &j) < 0) return -1;
        int t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
    return 0;
}

/* The ints of a sequence of at most `most`, each in [lo, hi]; their number, or -1. */
static int ints_in(PyObject *seq, int *out, int most, long lo, long hi, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > most) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d entries", what, most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* sample_hands(getrandbits, seat, hand, counts, unseen, allowed, tries) -> (hands or None, cards):
 * unseen the unseen cards ascending, allowed[i] the mask of the seats unseen[i] may lie with;
 * the cards shuffled then sorted stably by how many seats each may lie with, then up to `tries`
 * greedy deals, each card to a seat with room drawn with weight proportional to its room. None
 * if every try got stuck (the caller then matches `cards`, as left, exactly). */
static PyObject *py_sample_hands(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "sample_hands(getrandbits, seat, hand, counts, unseen, allowed, tries) takes 7 arguments");
        return NULL;
    }
    PyObject *getrandbits = args[0];
    long seat = PyLong_AsLong(args[1]);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    uint64_t hand;
    if (get_u64(args[2], &hand) < 0) return NULL;
    int counts[MAXP], unseen[64], allowed[64], order[64], room[64];
    int n = ints_in(args[3], counts, MAXP, 0, 64, "sample_hands: counts");
    if (n < 0) return NULL;
    int m = ints_in(args[4], unseen, 64, 0, 63, "sample_hands: unseen");
    if (m < 0) return NULL;
    if (ints_in(args[5], allowed, 64, 0, (1L << n) - 1, "sample_hands: allowed") != m) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "sample_hands: one mask of seats per unseen card");
        return NULL;
    }
    long tries = PyLong_AsLong(args[6]);
    if (tries == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= n) {
        PyErr_SetString(PyExc_ValueError, "sample_hands: seat out of range");
        return NULL;
    }
    PyObject *bits32 = PyLong_FromLong(32);
    if (!bits32) return NULL;
    int idx[64];
    for (int i = 0; i < m; i++) {
        idx[i] = i;
        room[i] = __builtin_popcount((unsigned)allowed[i]);
    }
    if (shuffle_ints(getrandbits, bits32, idx, m) < 0) {
        Py_DECREF(bits32);
        return NULL;
    }
    int k = 0; /* stable sort by room: a counting sort */
    for (int r = 0; r <= MAXP; r++)
        for (int i = 0; i < m; i++)
            if (room[idx[i]] == r) order[k++] = idx[i];
    uint64_t hands[MAXP];
    int dealt = 0;
    for (long t = 0; t < tries && !dealt; t++) {
        int left[MAXP];
        for (int s = 0; s < n; s++) {
            left[s] = counts[s];
            hands[s] = 0;
        }
        int i;
        for (i = 0; i < m; i++) {
            int c = order[i], places = allowed[c], s = -1;
            if (__builtin_popcount((unsigned)places) == 1) {
                s = __builtin_ctz((unsigned)places);
                if (!left[s]) break;
            } else {
                int options = 0, total = 0;
                for (int q = 0; q < n; q++)
                    if (places >> q & 1 && left[q]) {
                        options |= 1 << q;
                        total += left[q];
                    }
                if (!options) break;
                if (__builtin_popcount((unsigned)options) == 1) {
                    s = __builtin_ctz((unsigned)options);
                } else {
                    unsigned long x;
                    if (draw_below(getrandbits, bits32, (unsigned long)total, &x) < 0) {
                        Py_DECREF(bits32);
                        return NULL;
                    }
                    long y = (long)x;
                    for (int q = 0; q < n; q++) {
                        if (!(options >> q & 1)) continue;
                        s = q;
                        y -= left[q];
                        if (y < 0) break;
                    }
                }
            }
            hands[s] |= 1ULL << unseen[c];
            left[s]--;
        }
        dealt = i == m;
    }
    Py_DECREF(bits32);
    PyObject *cards = PyList_New(m);
    if (!cards) return NULL;
    for (int i = 0; i < m; i++) {
        PyObject *v = PyLong_FromLong(unseen[order[i]]);
        if (!v) {
            Py_DECREF(cards);
            return NULL;
        }
        PyList_SET_ITEM(cards, i, v);
    }
    PyObject *out;
    if (dealt) {
        hands[seat] = hand;
        out = hands_list(hands, n);
        if (!out) {
            Py_DECREF(cards);
            return NULL;
        }
    } else {
        out = Py_NewRef(Py_None);
    }
    PyObject *pair = PyTuple_Pack(2, out, cards);
    Py_DECREF(out);
    Py_DECREF(cards);
    return pair;
}

/* deal_order(getrandbits, hands, declarer, direction, cards) -> the chance outcomes dealing hands
 * one card at a time from the declarer round the table: each seat's cards ascending, shuffled
 * (seat 0 first), each seat in turn giving the last card of its pile. */
static PyObject *py_deal_order(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "deal_order(getrandbits, hands, declarer, direction, cards) takes 5 arguments");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(args[1], "deal_order: hands must be a sequence of masks");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > MAXP) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "deal_order: one hand per seat");
        return NULL;
    }
    int piles[MAXP][64], size[MAXP];
    for (Py_ssize_t s = 0; s < n; s++) {
        uint64_t h;
        if (get_u64(PySequence_Fast_GET_ITEM(fast, s), &h) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
        size[s] = 0;
        for (; h; h &= h - 1) piles[s][size[s]++] = low_bit(h);
    }
    Py_DECREF(fast);
    long declarer = PyLong_AsLong(args[2]), direction = PyLong_AsLong(args[3]), count = PyLong_AsLong(args[4]);
    if (PyErr_Occurred()) return NULL;
    PyObject *bits32 = PyLong_FromLong(32);
    if (!bits32) return NULL;
    for (Py_ssize_t s = 0; s < n; s++)
        if (shuffle_ints(args[0], bits32, piles[s], size[s]) < 0) {
            Py_DECREF(bits32);
            return NULL;
        }
    Py_DECREF(bits32);
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    for (long k = 0; k < count; k++) {
        long s = ((declarer + direction * k) % n + n) % n;
        if (!size[s]) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_ValueError, "deal_order: a seat ran out of cards");
            return NULL;
        }
        PyObject *v = PyLong_FromLong(piles[s][--size[s]]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, v);
    }
    return out;
}

/* The arguments of play_random: one getrandbits per seat, and two lists to log into. */
static int play_random_args(PyObject *const *args, Py_ssize_t nargs, int players) {
    if (nargs != 3 || !PyTuple_Check(args[0]) || !PyList_Check(args[1]) || !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "play_random(draws, cards, seats) takes a tuple and two lists to log into");
        return -1;
    }
    if (PyTuple_GET_SIZE(args[0]) != players) {
        PyErr_SetString(PyExc_ValueError, "play_random takes one generator per seat");
        return -1;
    }
    return 0;
}

/* ---- write_play: a seat's observation during a trick deal's card play ----------------------
 *
 * barbu.research.encoding.write_play_pure in C, its reference (tests/test_native.py): the
 * sections of a seat's observation vector that change while a trick deal's cards are played
 * (the seat to act, the hand, the new play rows, the captured cards, the cards left) written
 * into the float32 vector in place, and the legal cards into the int8 action mask. As in
 * play_observed and lay_observed, every offset is checked to lie in the vector before any sum of
 * them is made, and every entry written to fall inside it, before anything is written; the
 * offsets, plays and seats must be ints, read without running Python code (the scalar
 * arguments are read first), and the plays are copied into C arrays by the checking pass: the
 * writing pass reads no Python object. */

/* A writable C-contiguous buffer of `count` items of `itemsize` bytes at least. */
static int writable(PyObject *o, Py_buffer *view, Py_ssize_t itemsize, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view->itemsize != itemsize || view->format == NULL ||
        (itemsize == 4 ? strcmp(view->format, "f") != 0 : (strcmp(view->format, "b") != 0 && strcmp(view->format, "B") != 0))) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "write_play: %s must be a contiguous %s array", what,
                     itemsize == 4 ? "float32" : "int8");
        return -1;
    }
    return 0;
}

/* A play of write_play, play_observed or lay_observed, copied: its card (-1 a pass) and seat. */
typedef struct {
    long card, seat;
} play_row;

/* An item that must be an int (or a subclass: read without running Python code) as a long. */
static int int_item(PyObject *o, long *out, const char *who) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: an offset, seat, index or count is an int, not %.100s", who,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    long x = PyLong_AsLong(o);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

/* Room for the copies of a sequence's rows: `stack` when they fit, else the heap (NULL with
 * MemoryError set when it has none); free_rows releases it. */
static void *rows_room(void *stack, size_t fits, size_t count, size_t size) {
    if (count <= fits) return stack;
    void *room = PyMem_Malloc(count * size);
    if (room == NULL) PyErr_NoMemory();
    return room;
}

static void free_rows(void *room, void *stack) {
    if (room != stack) PyMem_Free(room);
}

/* Copies the plays of plays_o from start on (their seats from seats_o, as long a list) into
 * rows, checked in the copying: int cards 0..51 (None, -1, a pass, when `passes`) and int seats
 * 0..n-1, read without running Python code. 1 when they fit, 0 when not, -1 on error. */
static int plays_copy(PyObject *plays_o, PyObject *seats_o, Py_ssize_t start, long n, int passes, play_row *rows,
                      const char *who) {
    Py_ssize_t count = PyList_GET_SIZE(plays_o);
    for (Py_ssize_t i = start; i < count; i++) {
        PyObject *c_o = PyList_GET_ITEM(plays_o, i);
        play_row *r = &rows[i - start];
        if (passes && c_o == Py_None)
            r->card = -1;
        else if (int_item(c_o, &r->card, who) < 0)
            return -1;
        if (int_item(PyList_GET_ITEM(seats_o, i), &r->seat, who) < 0) return -1;
        if (r->card < (passes ? -1 : 0) || r->card >= 52 || r->seat < 0 || r->seat >= n) return 0;
    }
    return 1;
}

/* Whether the entries write_play writes for n seats and count plays fall in a vector of `size`
 * entries: every offset in [0, size] before any sum of them (no sum below wraps). */
static int play_fits(const long *at, long n, Py_ssize_t count, Py_ssize_t size) {
    for (int k = 0; k < 5; k++)
        if (at[k] < 0 || at[k] > size) return 0;
    long width = 52 + n;
    return at[0] + n <= size && at[1] + 52 <= size && count <= (size - at[2]) / width && at[3] + 52 * n <= size &&
           at[4] + n <= size;
}

/* write_play's work once its arguments are checked (the plays from start on copied to rows,
 * every entry in the vector): captured NULL when unchanged. Reads no Python object. */
static void write_play_into(float *out, char *mask, const long *at, int me, int turn, int n, const uint64_t *hands,
                            const uint64_t *captured, const play_row *rows, Py_ssize_t start, Py_ssize_t count,
                            uint64_t legal) {
    Py_ssize_t width = 52 + n;
    for (Py_ssize_t i = start; i < count; i++) {
        const play_row *p = &rows[i - start];
        float *row = out + at[2] + i * width;
        row[p->card] = 1.0f;
        row[52 + ((p->seat - me) % n + n) % n] = 1.0f;
    }
    memset(out + at[0], 0, sizeof(float) * (size_t)n);
    out[at[0] + ((turn - me) % n + n) % n] = 1.0f;
    memset(out + at[1], 0, sizeof(float) * 52);
    for (uint64_t m = hands[me]; m; m &= m - 1) out[at[1] + low_bit(m)] = 1.0f;
    if (captured != NULL) {
        memset(out + at[3], 0, sizeof(float) * 52 * (size_t)n);
        for (int s = 0; s < n; s++) {
            float *base = out + at[3] + ((s - me) % n + n) % n * 52;
            for (uint64_t m = captured[s]; m; m &= m - 1) base[low_bit(m)] = 1.0f;
        }
    }
    for (int s = 0; s < n; s++) out[at[4] + ((s - me) % n + n) % n] = (float)__builtin_popcountll(hands[s]);
    for (uint64_t m = legal; m; m &= m - 1) mask[low_bit(m)] = 1;
}

static PyObject *py_write_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    const char *who = "write_play";
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError,
                        "write_play(out, mask, at, me, turn, hands, captured, plays, seats, start, legal) takes 11 arguments");
        return NULL;
    }
    PyObject *at_o = args[2], *hands_o = args[5], *captured_o = args[6], *plays_o = args[7], *seats_o = args[8];
    if (!PyTuple_Check(at_o) || PyTuple_GET_SIZE(at_o) != 5 || !PyList_Check(hands_o) || !PyList_Check(plays_o) ||
        !PyList_Check(seats_o) || (captured_o != Py_None && !PyList_Check(captured_o))) {
        PyErr_SetString(PyExc_TypeError, "write_play: at is a tuple of 5 offsets; hands, captured, plays, seats lists");
        return NULL;
    }
    /* the scalars first: the only Python code that may run, before any list is read */
    long me = PyLong_AsLong(args[3]), turn = PyLong_AsLong(args[4]);
    Py_ssize_t start = PyLong_AsSsize_t(args[9]);
    if (PyErr_Occurred()) return NULL;
    uint64_t legal;
    if (get_u64(args[10], &legal) < 0) return NULL;
    long at[5];
    for (int k = 0; k < 5; k++)
        if (int_item(PyTuple_GET_ITEM(at_o, k), &at[k], who) < 0) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(hands_o), count = PyList_GET_SIZE(plays_o);
    if (n < 1 || n > MAXP || me < 0 || me >= n || turn < 0 || turn >= n || start < 0 || start > count ||
        PyList_GET_SIZE(seats_o) != count || (captured_o != Py_None && PyList_GET_SIZE(captured_o) != n)) {
        PyErr_SetString(PyExc_ValueError, "write_play: seats, plays or lengths out of range");
        return NULL;
    }
    uint64_t hands[MAXP], captured[MAXP]; /* ints only: read without running Python code */
    for (Py_ssize_t s = 0; s < n; s++) {
        if (get_u64(PyList_GET_ITEM(hands_o, s), &hands[s]) < 0) return NULL;
        if (captured_o != Py_None && get_u64(PyList_GET_ITEM(captured_o, s), &captured[s]) < 0) return NULL;
    }
    Py_buffer ob, mb;
    if (writable(args[0], &ob, 4, "out") < 0) return NULL;
    if (writable(args[1], &mb, 1, "mask") < 0) {
        PyBuffer_Release(&ob);
        return NULL;
    }
    /* every offset, then every entry written, in the vector: checked before anything is written */
    int bad = !play_fits(at, n, count, ob.len / 4) || mb.len < 52 || (hands[me] >> 52) || (legal >> 52);
    for (Py_ssize_t s = 0; s < n && !bad; s++) bad = captured_o != Py_None && (captured[s] >> 52);
    play_row stack[64], *rows = stack;
    if (!bad) {
        rows = rows_room(stack, 64, (size_t)(count - start), sizeof(play_row));
        int fit = rows == NULL ? -1 : plays_copy(plays_o, seats_o, start, n, 0, rows, who);
        if (fit < 0) {
            if (rows != NULL) free_rows(rows, stack);
            PyBuffer_Release(&ob);
            PyBuffer_Release(&mb);
            return NULL;
        }
        bad = !fit;
    }
    if (!bad)
        write_play_into((float *)ob.buf, (char *)mb.buf, at, (int)me, (int)turn, (int)n, hands,
                        captured_o != Py_None ? captured : NULL, rows, start, count, legal);
    free_rows(rows, stack);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&mb);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "write_play: an offset, card or seat is out of the vector's range");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- play_observed: a card played and the next seat's observation written -----------------
 *
 * barbu.research.encoding.play_observed_pure in C, its reference (tests/test_native_batch.py):
 * one decision of a trick deal's card play for the PettingZoo environment. The card goes
 * through the compiled state's checked door (play_logged: a legal card of the seat to act,
 * logged to the deal's plays and seats), then the next seat's observation is brought up to date
 * as write_play would bring it, in its vector and mask, when its buffer follows the deal's card
 * play (its `following` list [deal, in play, plays written, tricks written], updated here).
 * Returns the next seat when written, the seat + players when not, -2 when the card ended the
 * play, -1 for a card that is not legal (nothing changed). */

static PyObject *py_play_observed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    const char *who_name = "play_observed";
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "play_observed(play, plays, seats, deal, following, vectors, masks, at, card) takes 9 arguments");
        return NULL;
    }
    PyObject *play_o = args[0], *plays_o = args[1], *seats_o = args[2], *deal = args[3], *following = args[4],
             *vectors = args[5], *masks = args[6], *at_o = args[7], *card = args[8];
    if (!PyObject_TypeCheck(play_o, &TrickCoreType) || !PyList_Check(plays_o) || !PyList_Check(seats_o) ||
        !PyList_Check(following) || !PyList_Check(vectors) || !PyList_Check(masks) || !PyTuple_Check(at_o) ||
        PyTuple_GET_SIZE(at_o) != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "play_observed: play is a compiled trick play; plays, seats, following, vectors, masks lists; "
                        "at a tuple of 5 offsets");
        return NULL;
    }
    TrickCore *core = (TrickCore *)play_o;
    if (!PyLong_CheckExact(card)) return PyLong_FromLong(-1);
    int overflow;
    long c = PyLong_AsLongAndOverflow(card, &overflow);
    if (overflow || c < 0 || c > 51) return PyLong_FromLong(-1);
    if (core_turn(core) < 0 || core_legal(core) < 0) return NULL;
    if (!((uint64_t)core->legal >> c & 1)) return PyLong_FromLong(-1);
    int n = core->players;
    if (PyList_GET_SIZE(following) != n || PyList_GET_SIZE(vectors) != n || PyList_GET_SIZE(masks) != n) {
        PyErr_SetString(PyExc_ValueError, "play_observed: following, vectors and masks hold one entry per seat");
        return NULL;
    }
    long at[5]; /* ints only, read without running Python code: nothing runs from here to the writing */
    for (int k = 0; k < 5; k++)
        if (int_item(PyTuple_GET_ITEM(at_o, k), &at[k], who_name) < 0) return NULL;
    PyObject *who = log_turn(core->turn, Py_None, card, plays_o, seats_o);
    if (who == NULL) return NULL;
    Py_DECREF(who);
    PyObject *r = core_play(core, card);
    if (r == NULL) return NULL;
    Py_DECREF(r);
    if (core->finished) return PyLong_FromLong(-2);
    int turn = core->turn;
    PyObject *state = PyList_GET_ITEM(following, turn);
    if (!PyList_Check(state) || PyList_GET_SIZE(state) != 4 || PyList_GET_ITEM(state, 0) != deal ||
        PyList_GET_ITEM(state, 1) != Py_True)
        return PyLong_FromLong(turn + n);
    long start, done;
    if (int_item(PyList_GET_ITEM(state, 2), &start, who_name) < 0 ||
        int_item(PyList_GET_ITEM(state, 3), &done, who_name) < 0)
        return NULL;
    Py_ssize_t tricks = PyList_GET_SIZE(core->winners), count = PyList_GET_SIZE(plays_o);
    uint64_t hands[MAXP], captured[MAXP];
    for (int s = 0; s < n; s++) {
        if (get_u64(PyList_GET_ITEM(core->hands, s), &hands[s]) < 0) return NULL;
        if (tricks != done && get_u64(PyList_GET_ITEM(core->captured, s), &captured[s]) < 0) return NULL;
    }
    if (core_legal(core) < 0) return NULL;
    play_row stack[64], *rows = stack;
    int fit = start >= 0 && start <= count && PyList_GET_SIZE(seats_o) == count;
    if (fit) {
        rows = rows_room(stack, 64, (size_t)(count - start), sizeof(play_row));
        if (rows == NULL) return NULL;
        fit = plays_copy(plays_o, seats_o, start, n, 0, rows, who_name);
        if (fit < 0) {
            free_rows(rows, stack);
            return NULL;
        }
    }
    Py_buffer ob, mb;
    if (writable(PyList_GET_ITEM(vectors, turn), &ob, 4, "a vector") < 0) {
        free_rows(rows, stack);
        return NULL;
    }
    if (writable(PyList_GET_ITEM(masks, turn), &mb, 1, "a mask") < 0) {
        free_rows(rows, stack);
        PyBuffer_Release(&ob);
        return NULL;
    }
    /* every offset, then every entry written, in the vector: checked before anything is written */
    int bad = !fit || !play_fits(at, n, count, ob.len / 4) || mb.len < 52 || (hands[turn] >> 52);
    for (int s = 0; s < n && !bad; s++) bad = tricks != done && (captured[s] >> 52);
    if (!bad) {
        memset(mb.buf, 0, (size_t)mb.len);
        write_play_into((float *)ob.buf, (char *)mb.buf, at, turn, turn, n, hands, tricks != done ? captured : NULL,
                        rows, start, count, (uint64_t)core->legal);
    }
    free_rows(rows, stack);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&mb);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "play_observed: an offset, card or seat is out of the vector's range");
        return NULL;
    }
    PyObject *written = PyLong_FromSsize_t(count), *won = PyLong_FromSsize_t(tricks);
    if (!written || !won) {
        Py_XDECREF(written);
        Py_XDECREF(won);
        return NULL;
    }
    PyList_SetItem(state, 2, written); /* steals the references */
    PyList_SetItem(state, 3, won);
    return PyLong_FromLong(turn);
}

/* ---- lay_observed: a domino lay or pass and the next seat's observation written ----------
 *
 * barbu.research.encoding.lay_observed_pure in C, its reference (tests/test_native_batch.py):
 * one decision of a one-deck domino deal's card play for the PettingZoo environment, as
 * play_observed is one of a trick deal's. The lay (action 0..51) or pass (action 52) goes
 * through the compiled state's checked door (a legal card of the seat to act, or a pass when it
 * has none, logged to the deal's plays and seats), then the next seat's observation is brought up
 * to date as barbu.research.encoding.write_lays_pure would bring it, in its vector and mask, when
 * its buffer follows the deal's card play (its `following` list [deal, in play, plays written,
 * cards laid written], updated here). The same answers as play_observed. */

/* The ranks lo..hi of the row of suit as a view shows it (_DominoRows._row): 0 when not started. */
static int dom_row(const DominoCore *d, int suit, int *lo, int *hi) {
    int r = d->rank;
    uint64_t bits = (d->laid >> (13 * suit)) & 0x1FFF;
    if (r < 0 || !(bits >> r & 1)) return 0;
    uint64_t below = ~bits & ((1ULL << r) - 1);
    int gap = below ? 64 - __builtin_clzll(below) : 0, floor = d->low_rank < r ? d->low_rank : r;
    *lo = gap > floor ? gap : floor;
    *hi = r + __builtin_ctzll((~bits & 0x3FFF) >> (r + 1)); /* bit 13 is always a gap */
    return 1;
}

static PyObject *py_lay_observed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    const char *who_name = "lay_observed";
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "lay_observed(play, plays, seats, deal, following, vectors, masks, at, action) takes 9 arguments");
        return NULL;
    }
    PyObject *play_o = args[0], *plays_o = args[1], *seats_o = args[2], *deal = args[3], *following = args[4],
             *vectors = args[5], *masks = args[6], *at_o = args[7], *action = args[8];
    if (!PyObject_TypeCheck(play_o, &DominoCoreType) || !PyList_Check(plays_o) || !PyList_Check(seats_o) ||
        !PyList_Check(following) || !PyList_Check(vectors) || !PyList_Check(masks) || !PyTuple_Check(at_o) ||
        PyTuple_GET_SIZE(at_o) != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "lay_observed: play is a compiled domino play; plays, seats, following, vectors, masks lists; "
                        "at a tuple of 8 offsets");
        return NULL;
    }
    DominoCore *d = (DominoCore *)play_o;
    if (!PyLong_CheckExact(action)) return PyLong_FromLong(-1);
    int overflow;
    long a = PyLong_AsLongAndOverflow(action, &overflow);
    if (overflow || a < 0 || a > 52) return PyLong_FromLong(-1);
    if (dom_check(d) < 0) return NULL;
    uint64_t hand;
    if (dom_hand(d, d->turn, &hand) < 0) return NULL;
    uint64_t legal = hand & d->playable;
    if (a == 52 ? legal != 0 : !(legal >> a & 1)) return PyLong_FromLong(-1);
    int n = d->players;
    if (PyList_GET_SIZE(following) != n || PyList_GET_SIZE(vectors) != n || PyList_GET_SIZE(masks) != n) {
        PyErr_SetString(PyExc_ValueError, "lay_observed: following, vectors and masks hold one entry per seat");
        return NULL;
    }
    long at[8]; /* ints only, read without running Python code: nothing runs from here to the writing */
    for (int k = 0; k < 8; k++)
        if (int_item(PyTuple_GET_ITEM(at_o, k), &at[k], who_name) < 0) return NULL;
    PyObject *card = a == 52 ? Py_None : action;
    PyObject *who = log_turn(d->turn, Py_None, card, plays_o, seats_o);
    if (who == NULL) return NULL;
    Py_DECREF(who);
    PyObject *r = dom_play(d, card);
    if (r == NULL) return NULL;
    Py_DECREF(r);
    if (d->finished) return PyLong_FromLong(-2);
    int turn = d->turn;
    PyObject *state = PyList_GET_ITEM(following, turn);
    if (!PyList_Check(state) || PyList_GET_SIZE(state) != 4 || PyList_GET_ITEM(state, 0) != deal ||
        PyList_GET_ITEM(state, 1) != Py_True)
        return PyLong_FromLong(turn + n);
    long start, lays;
    if (int_item(PyList_GET_ITEM(state, 2), &start, who_name) < 0 ||
        int_item(PyList_GET_ITEM(state, 3), &lays, who_name) < 0)
        return NULL;
    long before = lays;
    Py_ssize_t count = PyList_GET_SIZE(plays_o);
    uint64_t hands[MAXP];
    for (int s = 0; s < n; s++)
        if (get_u64(PyList_GET_ITEM(d->hands, s), &hands[s]) < 0) return NULL;
    if (dom_hand(d, turn, &legal) < 0) return NULL;
    legal &= d->playable;
    Py_ssize_t laid = 0; /* cards among all the plays, as len(plays) - plays.count(None) */
    for (Py_ssize_t i = 0; i < count; i++) laid += PyList_GET_ITEM(plays_o, i) != Py_None;
    Py_buffer ob, mb;
    if (writable(PyList_GET_ITEM(vectors, turn), &ob, 4, "a vector") < 0) return NULL;
    if (writable(PyList_GET_ITEM(masks, turn), &mb, 1, "a mask") < 0) {
        PyBuffer_Release(&ob);
        return NULL;
    }
    float *out = (float *)ob.buf;
    char *mask = (char *)mb.buf;
    memset(mask, 0, (size_t)mb.len); /* cleared first, as lay_observed_pure clears it */
    Py_ssize_t size = ob.len / 4, width = 52 + n, norder = PyList_GET_SIZE(d->order);
    /* every offset and the cards laid in [0, size] before any sum (no sum below wraps), then every
     * entry written in the vector: all checked before anything is written */
    int bad = start < 0 || start > count || lays < 0 || lays > size || PyList_GET_SIZE(seats_o) != count ||
              mb.len < 53 || (hands[turn] >> 52) || norder > n;
    for (int k = 0; k < 8 && !bad; k++) bad = at[k] < 0 || at[k] > size;
    bad = bad || at[0] + n > size || at[1] + 13 > size || at[2] + 52 > size || at[5] + 52 > size ||
          at[6] + n * n > size || at[7] + n > size;
    long order[MAXP];
    for (Py_ssize_t i = 0; i < norder && !bad; i++) {
        if (int_item(PyList_GET_ITEM(d->order, i), &order[i], who_name) < 0) goto fail;
        bad = order[i] < 0 || order[i] >= n;
    }
    /* the new plays copied, and checked: their entries, and a seat passing twice between two lays */
    play_row stack[64], *rows = stack;
    long lay = lays, twice = -1;
    if (!bad) {
        rows = rows_room(stack, 64, (size_t)(count - start), sizeof(play_row));
        int fit = rows == NULL ? -1 : plays_copy(plays_o, seats_o, start, n, 1, rows, who_name);
        if (fit < 0) {
            if (rows != NULL) free_rows(rows, stack);
            goto fail;
        }
        bad = !fit;
    }
    unsigned passed = 0;
    for (Py_ssize_t i = start; i < count && !bad; i++) {
        const play_row *p = &rows[i - start];
        if (p->card < 0) {
            long rel = ((p->seat - turn) % n + n) % n;
            if (lay > (size - at[4]) / n || at[4] + lay * n + rel >= size) {
                bad = 1;
                break;
            }
            if (out[at[4] + lay * n + rel] != 0.0f || (passed >> rel & 1)) {
                twice = p->seat;
                break;
            }
            passed |= 1u << rel;
        } else {
            if (lay + 1 > (size - at[3]) / width) {
                bad = 1;
                break;
            }
            lay++;
            passed = 0;
        }
    }
    if (bad || twice >= 0) {
        free_rows(rows, stack);
        PyBuffer_Release(&ob);
        PyBuffer_Release(&mb);
        if (twice >= 0)
            PyErr_Format(PyExc_ValueError, "seat %ld passed twice between two lays: the encoding cannot say so", twice);
        else
            PyErr_SetString(PyExc_ValueError, "lay_observed: an offset, card or seat is out of the vector's range");
        return NULL;
    }
    for (Py_ssize_t i = start; i < count; i++) {
        const play_row *p = &rows[i - start];
        long rel = ((p->seat - turn) % n + n) % n;
        if (p->card < 0) {
            out[at[4] + lays * n + rel] = 1.0f;
            continue;
        }
        float *row = out + at[3] + lays * width;
        row[p->card] = 1.0f;
        row[52 + rel] = 1.0f;
        lays++;
    }
    free_rows(rows, stack);
    memset(out + at[0], 0, sizeof(float) * (size_t)n);
    out[at[0]] = 1.0f; /* the seat to act is the seat written */
    memset(out + at[1], 0, sizeof(float) * 13);
    if (d->rank >= 0) out[at[1] + d->rank] = 1.0f;
    memset(out + at[2], 0, sizeof(float) * 52);
    for (uint64_t m = hands[turn]; m; m &= m - 1) out[at[2] + low_bit(m)] = 1.0f;
    if (laid != before) { /* the rows changed since the buffer was last written */
        memset(out + at[5], 0, sizeof(float) * 52);
        for (int suit = 0; suit < 4; suit++) {
            int lo, hi;
            if (dom_row(d, suit, &lo, &hi))
                for (int k = lo; k <= hi; k++) out[at[5] + 13 * suit + k] = 1.0f;
        }
    }
    memset(out + at[6], 0, sizeof(float) * (size_t)(n * n));
    for (Py_ssize_t i = 0; i < norder; i++) out[at[6] + i * n + ((order[i] - turn) % n + n) % n] = 1.0f;
    for (int s = 0; s < n; s++) out[at[7] + ((s - turn) % n + n) % n] = (float)__builtin_popcountll(hands[s]);
    if (legal) {
        for (uint64_t m = legal; m; m &= m - 1) mask[low_bit(m)] = 1;
    } else
        mask[52] = 1;
    PyBuffer_Release(&ob);
    PyBuffer_Release(&mb);
    PyObject *written = PyLong_FromSsize_t(count), *won = PyLong_FromLong(lays);
    if (!written || !won) {
        Py_XDECREF(written);
        Py_XDECREF(won);
        return NULL;
    }
    PyList_SetItem(state, 2, written); /* steals the references */
    PyList_SetItem(state, 3, won);
    return PyLong_FromLong(turn);
fail:
    PyBuffer_Release(&ob);
    PyBuffer_Release(&mb);
    return NULL;
}

/* ---- write_game and write_calls: a deal's first observation and its calls -----------------
 *
 * barbu.research.encoding.write_game_pure and write_calls_pure in C, their references
 * (tests/test_native_batch.py): the parts of a seat's observation the PettingZoo environment
 * writes at a deal's start (the hand, the cards left, the game's facts) and in the calls (the
 * public facts, the calls, the business pairs, the compulsory double), in place. Every offset
 * and size is checked to lie in the vector before any sum of them is made, and every entry
 * written to fall inside the vector, before anything is written. The scalar arguments are
 * read first (an __index__ of theirs may run Python code); the items of the tuples and lists
 * must be ints (floats too where a float is written), read without running Python code, and
 * are copied into C arrays by the checking pass: the writing pass reads no Python object. */

/* The relative seat of `seat` seen from `me`, with n seats. */
static long rel_seat(long seat, long me, long n) { return ((seat - me) % n + n) % n; }

/* An item that must be a float or an int (read without running Python code) as a double. */
static int double_item(PyObject *o, double *out, const char *who) {
    if (PyFloat_Check(o)) {
        *out = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: a count, total or score is a float or an int, not %.100s", who,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    double x = PyLong_AsDouble(o);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

static int tuple_or_list(PyObject *o) { return PyTuple_Check(o) || PyList_Check(o); }

static PyObject *write_range_error(const char *who) {
    PyErr_Format(PyExc_ValueError, "%s: an offset, card, seat or contract is out of the vector's range", who);
    return NULL;
}

/* A declared contract of write_game, copied: (declarer, contract's index, count). */
typedef struct {
    long declarer, contract;
    double count;
} declared_row;

static PyObject *py_write_game(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    const char *who = "write_game";
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "write_game(out, at, me, hands, declared, live_declarer, live_contract, "
                                         "doubles, totals, previous) takes 10 arguments");
        return NULL;
    }
    PyObject *at_o = args[1], *hands_o = args[3], *declared_o = args[4], *doubles_o = args[7], *totals_o = args[8],
             *previous_o = args[9];
    if (!PyTuple_Check(at_o) || PyTuple_GET_SIZE(at_o) != 7 || !tuple_or_list(hands_o) || !tuple_or_list(declared_o) ||
        !tuple_or_list(doubles_o) || !tuple_or_list(totals_o) || !tuple_or_list(previous_o)) {
        PyErr_SetString(PyExc_TypeError,
                        "write_game: at is a tuple of 7 offsets; hands, declared, doubles, totals, previous tuples or lists");
        return NULL;
    }
    /* the scalars first: the only Python code that may run, before any list is read */
    long me = PyLong_AsLong(args[2]), live_declarer = PyLong_AsLong(args[5]), live_contract = PyLong_AsLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    long at[7];
    for (int k = 0; k < 7; k++)
        if (int_item(PyTuple_GET_ITEM(at_o, k), &at[k], who) < 0) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(hands_o), nd = PySequence_Fast_GET_SIZE(declared_o),
               ndoubles = PySequence_Fast_GET_SIZE(doubles_o), ntotals = PySequence_Fast_GET_SIZE(totals_o),
               nprevious = PySequence_Fast_GET_SIZE(previous_o);
    if (n < 1 || n > MAXP || me < 0 || me >= n || ndoubles > n || ntotals > n || nprevious > n)
        return write_range_error(who);
    uint64_t hands[MAXP];
    for (Py_ssize_t s = 0; s < n; s++)
        if (get_u64(PySequence_Fast_GET_ITEM(hands_o, s), &hands[s]) < 0) return NULL;
    double values[MAXP * 3];
    for (Py_ssize_t s = 0; s < ndoubles; s++)
        if (double_item(PySequence_Fast_GET_ITEM(doubles_o, s), &values[s], who) < 0) return NULL;
    for (Py_ssize_t s = 0; s < ntotals; s++)
        if (double_item(PySequence_Fast_GET_ITEM(totals_o, s), &values[MAXP + s], who) < 0) return NULL;
    for (Py_ssize_t s = 0; s < nprevious; s++)
        if (double_item(PySequence_Fast_GET_ITEM(previous_o, s), &values[2 * MAXP + s], who) < 0) return NULL;
    Py_buffer ob;
    if (writable(args[0], &ob, 4, "out") < 0) return NULL;
    float *out = (float *)ob.buf;
    long size = (long)(ob.len / 4);
    long hand = at[0], left = at[1], declared = at[2], width = at[3], doubles = at[4], totals = at[5], previous = at[6];
    /* every offset and the width in [-1, size] before any sum (n <= MAXP: no sum below wraps), then
     * every entry written in the vector: all checked before anything is written */
    int bad = 0;
    for (int k = 0; k < 7; k++) bad |= at[k] < -1 || at[k] > size;
    bad = bad || width < 0 || hand < 0 || hand + 52 > size || (hands[me] >> 52) || left < 0 || left + n > size ||
          declared < 0 || declared + n * width > size || totals < 0 || totals + ntotals > size ||
          (ndoubles && (doubles < 0 || doubles + ndoubles > size)) ||
          (nprevious && (previous < 0 || previous + 1 + nprevious > size)) ||
          (live_declarer >= 0 && (live_declarer >= n || live_contract < 0 || live_contract >= width));
    if (bad) {
        PyBuffer_Release(&ob);
        return write_range_error(who);
    }
    declared_row stack[64];
    declared_row *rows = rows_room(stack, 64, (size_t)nd, sizeof(declared_row));
    if (rows == NULL) goto fail;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(declared_o, i);
        declared_row *r = &rows[i];
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 3) {
            bad = 1;
            break;
        }
        if (int_item(PyTuple_GET_ITEM(row, 0), &r->declarer, who) < 0 ||
            int_item(PyTuple_GET_ITEM(row, 1), &r->contract, who) < 0 ||
            double_item(PyTuple_GET_ITEM(row, 2), &r->count, who) < 0) {
            free_rows(rows, stack);
            goto fail;
        }
        if (r->declarer < 0 || r->declarer >= n || r->contract < 0 || r->contract >= width) {
            bad = 1;
            break;
        }
    }
    if (bad) {
        free_rows(rows, stack);
        PyBuffer_Release(&ob);
        return write_range_error(who);
    }
    memset(out, 0, (size_t)ob.len);
    for (Py_ssize_t s = 0; s < n; s++) out[left + rel_seat(s, me, n)] = (float)__builtin_popcountll(hands[s]);
    for (Py_ssize_t i = 0; i < nd; i++)
        out[declared + rel_seat(rows[i].declarer, me, n) * width + rows[i].contract] = (float)rows[i].count;
    free_rows(rows, stack);
    if (live_declarer >= 0) out[declared + rel_seat(live_declarer, me, n) * width + live_contract] += 1.0f;
    for (Py_ssize_t s = 0; s < ndoubles; s++) out[doubles + rel_seat(s, me, n)] = (float)values[s];
    for (Py_ssize_t s = 0; s < ntotals; s++) out[totals + rel_seat(s, me, n)] = (float)values[MAXP + s];
    if (nprevious) {
        out[previous] = 1.0f;
        for (Py_ssize_t s = 0; s < nprevious; s++) out[previous + 1 + rel_seat(s, me, n)] = (float)values[2 * MAXP + s];
    }
    for (uint64_t m = hands[me]; m; m &= m - 1) out[hand + low_bit(m)] = 1.0f;
    PyBuffer_Release(&ob);
    Py_RETURN_NONE;
fail:
    PyBuffer_Release(&ob);
    return NULL;
}

/* The seats of a call's doubles or redoubles (a tuple of int seats 0..n-1) as a bit mask; -1 when
 * one is not a seat or not an int (an error is set only for a failed conversion). */
static long call_seats(PyObject *seats, long n) {
    if (!PyTuple_Check(seats)) return -1;
    long bits = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seats); i++) {
        PyObject *t = PyTuple_GET_ITEM(seats, i);
        if (!PyLong_Check(t)) return -1;
        long x = PyLong_AsLong(t);
        if (x == -1 && PyErr_Occurred()) return -1;
        if (x < 0 || x >= n) return -1;
        bits |= 1L << x;
    }
    return bits;
}

/* A call of write_calls, copied: its caller, round and the seats it doubled and redoubled. */
typedef struct {
    long caller, round, doubled, redoubled;
} call_row;

/* A business pair of write_calls, copied: doubler, doubled seat, multiplier. */
typedef struct {
    long doubler, doubled, multiplier;
} pair_row;

static PyObject *py_write_calls(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    const char *who = "write_calls";
    if (nargs != 15) {
        PyErr_SetString(PyExc_TypeError, "write_calls(out, at, me, n, phase, index, to_act, declarer, contract, trump, "
                                         "rank, calls, start, pairs, must) takes 15 arguments");
        return NULL;
    }
    PyObject *at_o = args[1], *calls_o = args[11], *pairs_o = args[13];
    if (!PyTuple_Check(at_o) || PyTuple_GET_SIZE(at_o) != 13 || (calls_o != Py_None && !PyList_Check(calls_o)) ||
        !tuple_or_list(pairs_o)) {
        PyErr_SetString(PyExc_TypeError, "write_calls: at is a tuple of 13 offsets; calls a list or None; pairs a "
                                         "tuple or list");
        return NULL;
    }
    /* the scalars first: the only Python code that may run, before any list is read */
    long v[9];
    for (int k = 0; k < 9; k++) { /* me, n, phase, index, to_act, declarer, contract, trump, rank */
        v[k] = PyLong_AsLong(args[2 + k]);
        if (v[k] == -1 && PyErr_Occurred()) return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[12]);
    if (start == -1 && PyErr_Occurred()) return NULL;
    int must = PyObject_IsTrue(args[14]);
    if (must < 0) return NULL;
    long at[13];
    for (int k = 0; k < 13; k++)
        if (int_item(PyTuple_GET_ITEM(at_o, k), &at[k], who) < 0) return NULL;
    long me = v[0], n = v[1], phase = v[2], index = v[3], to_act = v[4], declarer = v[5], contract = v[6], trump = v[7],
         rank = v[8];
    long hand = at[0], round1 = at[9], round2 = at[10], pairs = at[11], must_at = at[12];
    Py_buffer ob;
    if (writable(args[0], &ob, 4, "out") < 0) return NULL;
    float *out = (float *)ob.buf;
    long size = (long)(ob.len / 4);
    Py_ssize_t count = calls_o == Py_None ? 0 : PyList_GET_SIZE(calls_o),
               npairs = calls_o == Py_None ? 0 : PySequence_Fast_GET_SIZE(pairs_o); /* no doubling: no pairs */
    /* every offset and index in [-1, size] before any sum (n <= MAXP: no sum below wraps), then
     * every entry written in the vector: all checked before anything is written */
    int bad = n < 1 || n > MAXP;
    for (int k = 0; k < 13; k++) bad |= at[k] < -1 || at[k] > size;
    for (int k = 2; k < 9; k++) bad |= v[k] < -1 || v[k] > size;
    bad = bad || me < 0 || me >= n || hand < 0 || declarer < 0 || declarer >= n || to_act >= n || phase < 0 ||
          index < 0 || at[1] < 0 || at[1] + me >= hand || at[2] < 0 || at[2] + phase >= hand || at[3] < 0 ||
          at[3] + index >= hand || at[4] < 0 || at[4] + n > hand || at[5] < 0 || at[5] + n > hand ||
          (contract >= 0 && (at[6] < 0 || at[6] + contract >= hand)) ||
          (trump >= 0 && (at[7] < 0 || at[7] + trump >= hand)) || (rank >= 0 && (at[8] < 0 || at[8] + rank >= hand));
    if (!bad && calls_o != Py_None)
        bad = round1 < 0 || round2 != round1 + n * (1 + 2 * n) || pairs != round2 + n * (1 + n) ||
              must_at != pairs + n * n || must_at >= size || start > count;
    if (bad) {
        PyBuffer_Release(&ob);
        return write_range_error(who);
    }
    Py_ssize_t from = start < 0 ? 0 : start, ncalls = count > from ? count - from : 0;
    call_row call_stack[32];
    pair_row pair_stack[32];
    call_row *calls = rows_room(call_stack, 32, (size_t)ncalls, sizeof(call_row));
    if (calls == NULL) goto fail;
    pair_row *pair_rows = rows_room(pair_stack, 32, (size_t)npairs, sizeof(pair_row));
    if (pair_rows == NULL) {
        free_rows(calls, call_stack);
        goto fail;
    }
    for (Py_ssize_t i = from; i < count && !bad; i++) {
        PyObject *call = PyList_GET_ITEM(calls_o, i);
        call_row *c = &calls[i - from];
        if (!PyTuple_Check(call) || PyTuple_GET_SIZE(call) != 5) {
            bad = 1;
            break;
        }
        if (int_item(PyTuple_GET_ITEM(call, 0), &c->caller, who) < 0 ||
            int_item(PyTuple_GET_ITEM(call, 1), &c->round, who) < 0)
            goto fail_rows;
        c->doubled = call_seats(PyTuple_GET_ITEM(call, 3), n);
        c->redoubled = call_seats(PyTuple_GET_ITEM(call, 4), n);
        if (PyErr_Occurred()) goto fail_rows;
        bad = c->caller < 0 || c->caller >= n || (c->round != 1 && c->round != 2) || c->doubled < 0 || c->redoubled < 0;
    }
    for (Py_ssize_t i = 0; i < npairs && !bad; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(pairs_o, i);
        pair_row *p = &pair_rows[i];
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 3) {
            bad = 1;
            break;
        }
        if (int_item(PyTuple_GET_ITEM(pair, 0), &p->doubler, who) < 0 ||
            int_item(PyTuple_GET_ITEM(pair, 1), &p->doubled, who) < 0 ||
            int_item(PyTuple_GET_ITEM(pair, 2), &p->multiplier, who) < 0)
            goto fail_rows;
        bad = p->doubler < 0 || p->doubler >= n || p->doubled < 0 || p->doubled >= n;
    }
    if (bad) {
        free_rows(calls, call_stack);
        free_rows(pair_rows, pair_stack);
        PyBuffer_Release(&ob);
        return write_range_error(who);
    }
    memset(out, 0, sizeof(float) * (size_t)hand);
    out[at[1] + me] = 1.0f;
    out[at[2] + phase] = 1.0f;
    out[at[3] + index] = 1.0f;
    if (to_act >= 0) out[at[4] + rel_seat(to_act, me, n)] = 1.0f;
    out[at[5] + rel_seat(declarer, me, n)] = 1.0f;
    if (contract >= 0) out[at[6] + contract] = 1.0f;
    if (trump >= 0) out[at[7] + trump] = 1.0f;
    if (rank >= 0) out[at[8] + rank] = 1.0f;
    if (calls_o == Py_None) {
        free_rows(calls, call_stack);
        free_rows(pair_rows, pair_stack);
        PyBuffer_Release(&ob);
        return PyLong_FromLong(-1);
    }
    if (start < 0)
        memset(out + round1, 0, sizeof(float) * (size_t)(must_at + 1 - round1));
    else
        memset(out + pairs, 0, sizeof(float) * (size_t)(n * n));
    long w1 = 1 + 2 * n, w2 = 1 + n;
    for (Py_ssize_t i = 0; i < ncalls; i++) {
        const call_row *c = &calls[i];
        long rnd = c->round, rel = rel_seat(c->caller, me, n);
        float *base = out + (rnd == 1 ? round1 + rel * w1 : round2 + rel * w2);
        base[0] = 1.0f;
        for (long t = 0; t < n; t++) {
            if (rnd == 1 && (c->doubled >> t & 1)) base[1 + rel_seat(t, me, n)] = 1.0f;
            if (c->redoubled >> t & 1) base[1 + (rnd == 1 ? n : 0) + rel_seat(t, me, n)] = 1.0f;
        }
    }
    for (Py_ssize_t i = 0; i < npairs; i++) {
        const pair_row *p = &pair_rows[i];
        out[pairs + rel_seat(p->doubler, me, n) * n + rel_seat(p->doubled, me, n)] = (float)p->multiplier;
    }
    out[must_at] = must ? 1.0f : 0.0f;
    free_rows(calls, call_stack);
    free_rows(pair_rows, pair_stack);
    PyBuffer_Release(&ob);
    return PyLong_FromSsize_t(count);
fail_rows:
    free_rows(calls, call_stack);
    free_rows(pair_rows, pair_stack);
fail:
    PyBuffer_Release(&ob);
    return NULL;
}

static PyMethodDef methods[] = {
    {"write_game", (PyCFunction)(void (*)(void))py_write_game, METH_FASTCALL,
     "write_game(out, at, me, hands, declared, live_declarer, live_contract, doubles, totals, previous): a seat's "
     "observation at a deal's start, from the hands and the game's facts, in place"},
    {"write_calls", (PyCFunction)(void (*)(void))py_write_calls, METH_FASTCALL,
     "write_calls(out, at, me, n, phase, index, to_act, declarer, contract, trump, rank, calls, start, pairs, must) "
     "-> the calls written (-1: no doubling), a deal's public facts and calls in a seat's observation, in place"},
    {"lay_observed", (PyCFunction)(void (*)(void))py_lay_observed, METH_FASTCALL,
     "lay_observed(play, plays, seats, deal, following, vectors, masks, at, action) -> the next seat (+ players: "
     "not written; -2: the play ended; -1: not legal), a domino lay or pass and the next seat's observation written"},
    {"play_observed", (PyCFunction)(void (*)(void))py_play_observed, METH_FASTCALL,
     "play_observed(play, plays, seats, deal, following, vectors, masks, at, card) -> the next seat (+ players: "
     "not written; -2: the play ended; -1: not legal), a card played and the next seat's observation written"},
    {"write_play", (PyCFunction)(void (*)(void))py_write_play, METH_FASTCALL,
     "write_play(out, mask, at, me, turn, hands, captured, plays, seats, start, legal): a seat's observation "
     "during a trick deal's card play, in place"},
    {"pick", (PyCFunction)(void (*)(void))py_pick, METH_FASTCALL,
     "pick(table, mask) -> the entries of table at the set bits of mask, ascending"},
    {"deal_drawn", (PyCFunction)(void (*)(void))py_deal_drawn, METH_FASTCALL,
     "deal_drawn(random, players, deck, direction, declarer) -> the hands Dealer.deal deals with random"},
    {"sample_hands", (PyCFunction)(void (*)(void))py_sample_hands, METH_FASTCALL,
     "sample_hands(getrandbits, seat, hand, counts, unseen, allowed, tries) -> (hands or None, cards)"},
    {"deal_order", (PyCFunction)(void (*)(void))py_deal_order, METH_FASTCALL,
     "deal_order(getrandbits, hands, declarer, direction, cards) -> the chance outcomes dealing hands"},
    {"legal", py_legal, METH_O, "legal(state) -> the mask of the cards the seat to act may play"},
    {"step", py_step, METH_VARARGS, "step(state, card) -> the state after the seat to act plays card"},
    {"final", (PyCFunction)(void (*)(void))py_final, METH_FASTCALL,
     "final(captured, winners, model, pairs) -> each seat's final points of a trick deal played out"},
    {"raw", py_raw, METH_VARARGS, "raw(state, model) -> each seat's raw score of the tricks taken so far"},
    {"playouts", py_playouts, METH_VARARGS,
     "playouts(state, model, pairs, count, seed, record, guide) -> final scores of count completions"},
    {"solve", py_solve, METH_VARARGS, "solve(state, model, care, sign, cost, root) -> each seat's value"},
    {"choose", py_choose, METH_VARARGS, "choose(state, guide) -> the rules-of-thumb card of the seat to act"},
    {"finish", py_finish, METH_VARARGS,
     "finish(state, model, pairs, guide, care, sign, endgame, me) -> me's value of a rules-of-thumb finish"},
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
              PyModule_AddObjectRef(m, "TrickBatch", (PyObject *)&TrickBatchType) < 0 ||
              PyType_Ready(&ShufflerType) < 0 ||
              PyModule_AddObjectRef(m, "Shuffler", (PyObject *)&ShufflerType) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
