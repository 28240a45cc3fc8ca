//! The one list of games that the referee, its records, the board server,
//! the tuner and the generic tests read. A game's tools are generic over its
//! type (`run::<G>`), while a command line or a page names a game by its
//! `Game::NAME`; a list turns the name into a call of a `GameVisitor`'s
//! generic method with the game's types.
//!
//! A list is a chain, written `game_list![Entry<A, KA>, Entry<B, KB>]`;
//! `With<Entry<MyGame, MyKnowledge>, ProjectGames>` is the project's games
//! with one more before them, which a caller outside the crate can build
//! and hand to `referee::main_with::<L>` or
//! `board::connection::run_with::<L>`.

use std::marker::PhantomData;

use crate::core::weights::LinearEval;
use crate::core::{Game, Presentation};
use crate::engine::EngineProfile;
use crate::games::breakthrough::{Breakthrough, BreakthroughKnowledge};
use crate::games::cavalo::{Cavalo, CavaloKnowledge};
use crate::games::gomoku::{Gomoku, GomokuKnowledge};
use crate::games::hex::{Hex, HexKnowledge};

/// `game_list![A, B, C]` is the list `With<A, With<B, With<C, NoGames>>>`.
#[macro_export]
macro_rules! game_list {
    () => { $crate::registry::NoGames };
    ($first:ty $(, $rest:ty)* $(,)?) => {
        $crate::registry::With<$first, $crate::game_list![$($rest),*]>
    };
}

/// The project's games, in the order the board's menu and the tools'
/// help show them; a game joins with one line here.
pub type ProjectGames = game_list![
    Tunable<Breakthrough, BreakthroughKnowledge>,
    Tunable<Hex, HexKnowledge>,
    Tunable<Gomoku, GomokuKnowledge>,
    Tunable<Cavalo, CavaloKnowledge>,
];

/// One game of a list: its rules and the knowledge its engine searches with.
pub trait GameEntry {
    type Rules: Presentation;
    type Knowledge: EngineProfile<Self::Rules>;

    /// Calls `visitor` with the evaluation seen as a weighted sum of
    /// features, for a game whose evaluation is one (the tuner's Texel fit
    /// needs it); `None` for any other game.
    fn visit_linear_eval<V: LinearEvalVisitor<Self::Rules>>(visitor: V) -> Option<V::Output> {
        let _ = visitor;
        None
    }
}

/// What a tool does with one game, generic over the game's types.
pub trait GameVisitor {
    type Output;
    fn visit<E: GameEntry>(self) -> Self::Output;
}

/// What the tuner does with a linear evaluation of `G`.
pub trait LinearEvalVisitor<G: Game> {
    type Output;
    fn visit<T: LinearEval<G>>(self) -> Self::Output;
}

/// A game and its knowledge.
pub struct Entry<G, K>(PhantomData<fn() -> (G, K)>);

impl<G: Presentation, K: EngineProfile<G>> GameEntry for Entry<G, K> {
    type Rules = G;
    type Knowledge = K;
}

/// A game whose knowledge is also a linear evaluation the tuner can fit.
pub struct Tunable<G, K>(PhantomData<fn() -> (G, K)>);

impl<G: Presentation, K: EngineProfile<G> + LinearEval<G>> GameEntry for Tunable<G, K> {
    type Rules = G;
    type Knowledge = K;

    fn visit_linear_eval<V: LinearEvalVisitor<G>>(visitor: V) -> Option<V::Output> {
        Some(visitor.visit::<K>())
    }
}

/// A list of games, each named by its `Game::NAME`.
pub trait GameList {
    /// Calls `visitor` with the game named `name`; `None` if the list has
    /// no such game.
    fn visit<V: GameVisitor>(name: &str, visitor: V) -> Option<V::Output>;

    /// Calls a copy of `visitor` with every game in the list's order and
    /// appends what each returns to `outputs`.
    fn visit_each<V: GameVisitor + Clone>(visitor: V, outputs: &mut Vec<V::Output>);

    /// What `visitor` returns for each game, in the list's order.
    fn each<V: GameVisitor + Clone>(visitor: V) -> Vec<V::Output> {
        let mut outputs = Vec::new();
        Self::visit_each(visitor, &mut outputs);
        outputs
    }

    /// The games' names, in the list's order.
    fn names() -> Vec<&'static str> {
        Self::each(NameOf)
    }
}

/// The end of a list.
pub struct NoGames;

impl GameList for NoGames {
    fn visit<V: GameVisitor>(_name: &str, _visitor: V) -> Option<V::Output> {
        None
    }

    fn visit_each<V: GameVisitor + Clone>(_visitor: V, _outputs: &mut Vec<V::Output>) {}
}

/// The game `E` followed by the list `Rest`; `E` is found first when both
/// have a game of one name.
pub struct With<E, Rest>(PhantomData<fn() -> (E, Rest)>);

impl<E: GameEntry, Rest: GameList> GameList for With<E, Rest> {
    fn visit<V: GameVisitor>(name: &str, visitor: V) -> Option<V::Output> {
        if name == E::Rules::NAME {
            Some(visitor.visit::<E>())
        } else {
            Rest::visit(name, visitor)
        }
    }

    fn visit_each<V: GameVisitor + Clone>(visitor: V, outputs: &mut Vec<V::Output>) {
        outputs.push(visitor.clone().visit::<E>());
        Rest::visit_each(visitor, outputs);
    }
}

#[derive(Clone, Copy)]
struct NameOf;

impl GameVisitor for NameOf {
    type Output = &'static str;
    fn visit<E: GameEntry>(self) -> &'static str {
        E::Rules::NAME
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_lists_its_four_games_in_menu_order() {
        assert_eq!(
            ProjectGames::names(),
            ["breakthrough", "hex", "gomoku", "cavalo"]
        );
        assert_eq!(ProjectGames::visit("gomoku", NameOf), Some("gomoku"));
        assert_eq!(ProjectGames::visit("chess", NameOf), None);
    }

    #[derive(Clone, Copy)]
    struct HasLinearEval;

    impl GameVisitor for HasLinearEval {
        type Output = bool;
        fn visit<E: GameEntry>(self) -> bool {
            E::visit_linear_eval(Found).is_some()
        }
    }

    struct Found;

    impl<G: Game> LinearEvalVisitor<G> for Found {
        type Output = ();
        fn visit<T: LinearEval<G>>(self) {}
    }

    #[test]
    fn a_chained_game_comes_first_and_keeps_what_its_entry_offers() {
        use crate::core::PlainKnowledge;
        type Extended = With<Entry<Hex, PlainKnowledge<Hex>>, ProjectGames>;
        assert_eq!(
            Extended::names(),
            ["hex", "breakthrough", "hex", "gomoku", "cavalo"]
        );
        assert_eq!(Extended::visit("hex", HasLinearEval), Some(false));
        assert_eq!(ProjectGames::visit("hex", HasLinearEval), Some(true));
    }
}
