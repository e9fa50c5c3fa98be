/* puzzlelab's logging and replay harness for the Hanabi peer (Quuxplusone/Hanabi).
 *
 * Our own code, compiled by benchmarks/bench_hanabi_peer.py in a scratch build folder against
 * the peer's Hanabi.h and HanabiServer.cc (and one bot's sources when BOTNAME is defined); no
 * code of the peer is copied here.
 *
 * Build with -DBOTNAME=InfoBot (or SmartBot) for the logger:
 *     harness log SEED GAMES PLAYERS
 *   deals GAMES games as the peer's own run_BOTNAME --seed SEED does (one std::mt19937 seeded
 *   once, the server's shuffle of the server's ordered deck, cards drawn from the back), hands
 *   each deck to the server stacked, and prints one line per game:
 *     SCORE | 50 cards in drawing order ("1r" = red 1) | the moves in turn order
 *   Moves: pS (play slot S), dS (discard slot S), cTX (hint player T the colour letter X),
 *   vTV (hint player T the value V); slots count from the oldest card, 0. The logger adds what
 *   the move showed after a colon: the card played or discarded (p0:1r) or the slots a hint
 *   touched (c2r:0,3).
 *
 * Build without BOTNAME (and without HANABI_SERVER_NDEBUG, so the server checks each move) for
 * the replayer:
 *     harness replay < games
 *   reads lines "PLAYERS | 50 cards | moves" and plays the moves in the server on that deck,
 *   printing "ok SCORE" when the game ends exactly after the last move, else
 *   "rejected TURN REASON" (an illegal move, moves left over, or moves run out).
 */

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "Hanabi.h"

#ifdef BOTNAME
#define HARNESS_STRINGIFY2(x) #x
#define HARNESS_STRINGIFY(x) HARNESS_STRINGIFY2(x)
#include HARNESS_STRINGIFY(BOTNAME.h)
#endif

namespace {

const char COLOUR_LETTERS[] = "roygb";  /* the peer's Color enum order, 0..4 */

std::string cardText(const Hanabi::Card &card)
{
    std::string text;
    text += char('0' + int(card.value));
    text += COLOUR_LETTERS[int(card.color)];
    return text;
}

Hanabi::Card parseCard(const std::string &text)
{
    const char *letter = text.size() == 2 ? std::strchr(COLOUR_LETTERS, text[1]) : nullptr;
    if (letter == nullptr || *letter == '\0' || text[0] < '1' || text[0] > '5') {
        throw std::runtime_error("bad card " + text);
    }
    return Hanabi::Card(Hanabi::Color(letter - COLOUR_LETTERS), text[0] - '0');
}

std::vector<std::string> words(const std::string &text)
{
    std::istringstream in(text);
    std::vector<std::string> out;
    std::string word;
    while (in >> word) out.push_back(word);
    return out;
}

#ifdef BOTNAME
/* ---- the logger ------------------------------------------------------------------------------ */

std::vector<std::string> moveLog;

/* The slots a hint touched, "0,3". */
std::string slots(const Hanabi::CardIndices &indices)
{
    std::string text;
    for (int i = 0; i < indices.size(); ++i) text += (i ? "," : "") + std::to_string(indices[i]);
    return text;
}

/* The peer's bot, with every move it makes written down by the wrapper of player 0. */
class Logged final : public Hanabi::Bot {
    BOTNAME inner_;
    int me_;
    void note(const std::string &move) { if (me_ == 0) moveLog.push_back(move); }
public:
    Logged(int index, int numPlayers, int handSize) : inner_(index, numPlayers, handSize),
                                                      me_(index) {}
    void pleaseObserveBeforeMove(const Hanabi::Server &s) override
    { inner_.pleaseObserveBeforeMove(s); }
    void pleaseMakeMove(Hanabi::Server &s) override { inner_.pleaseMakeMove(s); }
    void pleaseObserveBeforeDiscard(const Hanabi::Server &s, int from, int index) override
    {
        note("d" + std::to_string(index) + ":" + cardText(s.activeCard()));
        inner_.pleaseObserveBeforeDiscard(s, from, index);
    }
    void pleaseObserveBeforePlay(const Hanabi::Server &s, int from, int index) override
    {
        note("p" + std::to_string(index) + ":" + cardText(s.activeCard()));
        inner_.pleaseObserveBeforePlay(s, from, index);
    }
    void pleaseObserveColorHint(const Hanabi::Server &s, int from, int to, Hanabi::Color color,
                                Hanabi::CardIndices indices) override
    {
        note("c" + std::to_string(to) + COLOUR_LETTERS[int(color)] + ":" + slots(indices));
        inner_.pleaseObserveColorHint(s, from, to, color, indices);
    }
    void pleaseObserveValueHint(const Hanabi::Server &s, int from, int to, Hanabi::Value value,
                                Hanabi::CardIndices indices) override
    {
        note("v" + std::to_string(to) + std::to_string(int(value)) + ":" + slots(indices));
        inner_.pleaseObserveValueHint(s, from, to, value, indices);
    }
    void pleaseObserveAfterMove(const Hanabi::Server &s) override
    { inner_.pleaseObserveAfterMove(s); }
};

struct LoggedFactory final : public Hanabi::BotFactory {
    Hanabi::Bot *create(int index, int numPlayers, int handSize) const override
    { return new Logged(index, numPlayers, handSize); }
    void destroy(Hanabi::Bot *bot) const override { delete bot; }
};

/* The next deck the peer's server would shuffle from this generator, in drawing order. */
std::vector<Hanabi::Card> nextDeck(std::mt19937 &rng)
{
    std::vector<Hanabi::Card> deck;
    for (int colour = 0; colour < Hanabi::NUMCOLORS; ++colour) {
        for (int value = 1; value <= 5; ++value) {
            const Hanabi::Card card(Hanabi::Color(colour), value);
            for (int k = 0; k < card.count(); ++k) deck.push_back(card);
        }
    }
    const int n = deck.size();
    for (int i = 0; i < n; ++i) {  /* the server's shuffle: one draw per position */
        const int j = rng() % (i + 1);
        if (j != i) std::swap(deck[i], deck[j]);
    }
    std::reverse(deck.begin(), deck.end());  /* the server draws from the back */
    return deck;
}

int logGames(unsigned int seed, int games, int players)
{
    std::mt19937 rng(seed);
    LoggedFactory factory;
    for (int g = 0; g < games; ++g) {
        const std::vector<Hanabi::Card> deck = nextDeck(rng);
        moveLog.clear();
        Hanabi::Server server;
        const int score = server.runGame(factory, players, deck);
        std::cout << score << " |";
        for (const Hanabi::Card &card : deck) std::cout << ' ' << cardText(card);
        std::cout << " |";
        for (const std::string &move : moveLog) std::cout << ' ' << move;
        std::cout << '\n';
    }
    return 0;
}

#else
/* ---- the replayer ---------------------------------------------------------------------------- */

struct Script {
    std::vector<std::string> moves;
    size_t next = 0;
    std::string rejected;
};

Script script;

/* Plays the script's next move for whoever is to move; refuses what the server would not see. */
class Replay final : public Hanabi::Bot {
public:
    Replay(int, int, int) {}
    void pleaseObserveBeforeMove(const Hanabi::Server &) override {}
    void pleaseMakeMove(Hanabi::Server &s) override
    {
        if (script.next >= script.moves.size()) throw std::runtime_error("moves ran out");
        const std::string move = script.moves[script.next++];
        const int me = s.whoAmI();
        if (move.size() < 2) throw std::runtime_error("bad move " + move);
        if (move[0] == 'p' || move[0] == 'd') {
            const int slot = std::atoi(move.c_str() + 1);
            /* the server checks index <= size: a slot past the hand is refused here */
            if (slot < 0 || slot >= s.sizeOfHandOfPlayer(me)) {
                throw std::runtime_error("no slot " + move.substr(1) + " in the hand");
            }
            if (move[0] == 'p') s.pleasePlay(slot); else s.pleaseDiscard(slot);
        } else if ((move[0] == 'c' || move[0] == 'v') && move.size() == 3) {
            const int to = move[1] - '0';
            if (move[0] == 'c') {
                const char *letter = std::strchr(COLOUR_LETTERS, move[2]);
                if (letter == nullptr || *letter == '\0') throw std::runtime_error("bad colour");
                s.pleaseGiveColorHint(to, Hanabi::Color(letter - COLOUR_LETTERS));
            } else {
                const int value = move[2] - '0';
                if (value < 1 || value > 5) throw std::runtime_error("bad value");
                s.pleaseGiveValueHint(to, Hanabi::Value(value));
            }
        } else {
            throw std::runtime_error("bad move " + move);
        }
    }
    void pleaseObserveBeforeDiscard(const Hanabi::Server &, int, int) override {}
    void pleaseObserveBeforePlay(const Hanabi::Server &, int, int) override {}
    void pleaseObserveColorHint(const Hanabi::Server &, int, int, Hanabi::Color,
                                Hanabi::CardIndices) override {}
    void pleaseObserveValueHint(const Hanabi::Server &, int, int, Hanabi::Value,
                                Hanabi::CardIndices) override {}
    void pleaseObserveAfterMove(const Hanabi::Server &) override {}
};

struct ReplayFactory final : public Hanabi::BotFactory {
    Hanabi::Bot *create(int index, int numPlayers, int handSize) const override
    { return new Replay(index, numPlayers, handSize); }
    void destroy(Hanabi::Bot *bot) const override { delete bot; }
};

int replayGames()
{
    std::string line;
    ReplayFactory factory;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::vector<std::string> parts;
        std::istringstream in(line);
        std::string part;
        while (std::getline(in, part, '|')) parts.push_back(part);
        try {
            if (parts.size() != 3) throw std::runtime_error("a game is PLAYERS | DECK | MOVES");
            const int players = std::atoi(parts[0].c_str());
            if (players < 2 || players > 5) throw std::runtime_error("2 to 5 players");
            std::vector<Hanabi::Card> deck;
            for (const std::string &card : words(parts[1])) deck.push_back(parseCard(card));
            if (deck.size() != 50) throw std::runtime_error("a deck has 50 cards");
            script = Script();
            script.moves = words(parts[2]);
            for (std::string &move : script.moves) move = move.substr(0, move.find(':'));
            Hanabi::Server server;  /* a fresh server: a refused move leaves it mid-game */
            const int score = server.runGame(factory, players, deck);
            if (script.next != script.moves.size()) {
                throw std::runtime_error("the game ended with moves left over");
            }
            std::cout << "ok " << score << '\n';
        } catch (const std::exception &e) {
            std::cout << "rejected " << script.next << ' ' << e.what() << '\n';
        }
    }
    return 0;
}
#endif

}  /* namespace */

int main(int argc, char **argv)
{
#ifdef BOTNAME
    if (argc == 5 && std::string(argv[1]) == "log") {
        return logGames(std::strtoul(argv[2], nullptr, 10), std::atoi(argv[3]),
                        std::atoi(argv[4]));
    }
    std::cerr << "usage: " << argv[0] << " log SEED GAMES PLAYERS\n";
#else
    if (argc == 2 && std::string(argv[1]) == "replay") return replayGames();
    std::cerr << "usage: " << argv[0] << " replay < games\n";
#endif
    return 2;
}
