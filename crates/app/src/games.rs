//! The registry of games: the one place that names them. A command picks a
//! game by name ([`GameKind`]) and hands a [`GameVisitor`] to
//! [`GameKind::visit`], which calls it back with the game's position type;
//! below that point everything is monomorphised.

use crate::AppError;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use zoo_core::{EngineGame, Game, Oracle, TableIndex, TableScheme};

/// The games zoo plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    /// Jungle (Dou Shou Qi), 7×9.
    Jungle,
    /// Jungle Checkers, 7×7, four animals a side.
    JungleCheckers,
    /// Classical (Portuguese/Spanish) checkers, flying kings.
    ClassicalCheckers,
    /// English checkers (draughts).
    EnglishCheckers,
}

impl GameKind {
    /// Every game, in the order the command line lists them.
    pub const ALL: [GameKind; 4] = [
        GameKind::Jungle,
        GameKind::JungleCheckers,
        GameKind::ClassicalCheckers,
        GameKind::EnglishCheckers,
    ];

    /// The stable name (`jungle`, `jungle-checkers`, …) of the command
    /// line, files and logs.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Jungle => "jungle",
            GameKind::JungleCheckers => "jungle-checkers",
            GameKind::ClassicalCheckers => "classical-checkers",
            GameKind::EnglishCheckers => "english-checkers",
        }
    }

    /// The names of this game's rule sets, the default first.
    pub fn rule_names(self) -> Vec<&'static str> {
        struct Names;
        impl GameVisitor for Names {
            type Output = Vec<&'static str>;
            fn visit<G: AppGame>(self) -> Self::Output {
                G::rule_names()
            }
        }
        self.visit(Names)
    }

    /// Each piece letter and its strength under the rule set `rules`
    /// (`None`: the default); empty for games whose pieces have none.
    pub fn strengths(self, rules: Option<&str>) -> Result<Vec<(char, u8)>, AppError> {
        struct Strengths<'a>(Option<&'a str>);
        impl GameVisitor for Strengths<'_> {
            type Output = Result<Vec<(char, u8)>, AppError>;
            fn visit<G: AppGame>(self) -> Self::Output {
                Ok(G::strengths(&rules_of::<G>(self.0)?))
            }
        }
        self.visit(Strengths(rules))
    }

    /// Calls `v` back with this game's position type.
    pub fn visit<V: GameVisitor>(self, v: V) -> V::Output {
        match self {
            GameKind::Jungle => v.visit::<zoo_animal::JunglePos>(),
            GameKind::JungleCheckers => v.visit::<zoo_animal::JungleCheckersPos>(),
            GameKind::ClassicalCheckers => v.visit::<zoo_checkers::ClassicalPos>(),
            GameKind::EnglishCheckers => v.visit::<zoo_checkers::EnglishPos>(),
        }
    }

    /// Whether this game has endgame tables (every game does: the animal
    /// games by their own generator, checkers by the generic one).
    pub fn has_tables(self) -> bool {
        true
    }

    /// Runs `v` with the table scheme of this game if the generic generator
    /// builds its tables (checkers); `None` for the animal games.
    pub fn visit_scheme_tables<V: SchemeVisitor>(self, v: V) -> Option<V::Output> {
        match self {
            GameKind::Jungle | GameKind::JungleCheckers => None,
            GameKind::ClassicalCheckers => Some(v.visit::<zoo_checkers::tables::ClassicalScheme>()),
            GameKind::EnglishCheckers => Some(v.visit::<zoo_checkers::tables::EnglishScheme>()),
        }
    }

    /// Runs `v` with the board of this game if the animal generator builds
    /// its tables, else refuses with [`AppError::NoTables`] (the commands
    /// only the animal tables have).
    pub fn visit_tables<V: TableVisitor>(self, v: V) -> Result<V::Output, AppError> {
        match self {
            GameKind::Jungle => Ok(v.visit::<zoo_animal::Jungle>()),
            GameKind::JungleCheckers => Ok(v.visit::<zoo_animal::JungleCheckers>()),
            GameKind::ClassicalCheckers | GameKind::EnglishCheckers => {
                Err(AppError::NoTables(self.name()))
            }
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = AppError;
    fn from_str(s: &str) -> Result<GameKind, AppError> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| AppError::UnknownGame(s.to_string()))
    }
}

/// Code run with one game's position type: the typed dispatch of every
/// command (`GameKind::visit`).
pub trait GameVisitor {
    /// What the visit gives back.
    type Output;
    /// Runs with `G`, the position type of the chosen game.
    fn visit<G: AppGame>(self) -> Self::Output;
}

/// Endgame tables opened as an oracle, and what they are.
pub struct OpenedTables<G> {
    /// The exact values the search and the solver consult.
    pub oracle: Arc<dyn Oracle<G>>,
    /// `jungle leiden tables in DIR, up to N pieces`.
    pub description: String,
    /// Builds the table of a material one piece past these in memory,
    /// where the game has a generator for it (the proof manager's way
    /// past the tables: `zoo_solve::material`).
    pub builder: Option<Arc<dyn zoo_core::MaterialBuilder<G>>>,
}

/// What the application needs of a game beyond its engine: which one it
/// is, and its endgame tables where it has them.
pub trait AppGame: EngineGame {
    /// This game's entry in the registry.
    const KIND: GameKind;
    /// The tables of this game and rule set under `dir`: `Ok(None)` when
    /// the directory holds none, `Err` when the game has no tables.
    fn open_tables(dir: &Path, rules: &Self::Rules)
        -> Result<Option<OpenedTables<Self>>, AppError>;
    /// How its positions spread over table files.
    type Scheme: zoo_core::TableScheme<Pos = Self>;
    /// A builder, in memory, of the tables of `max + 1` pieces from the
    /// tables of `rules` under `dir` (`OpenedTables::builder`), where the
    /// game has a generator for it.
    fn material_builder(
        dir: &Path,
        rules: &Self::Rules,
        max: u32,
    ) -> Option<Arc<dyn zoo_core::MaterialBuilder<Self>>> {
        let _ = (dir, rules, max);
        None
    }
    /// Each piece letter (White's, upper case) and its strength under
    /// `rules`, for games whose pieces have one (the animal games): what a
    /// front end shows beside a piece's name, taken from the rules in
    /// force rather than a table of its own.
    fn strengths(rules: &Self::Rules) -> Vec<(char, u8)> {
        let _ = rules;
        Vec::new()
    }
}

/// The animal board `B`'s letters with their strengths under `rules`.
fn animal_strengths<B: zoo_animal::Board>(rules: &zoo_animal::RuleSet) -> Vec<(char, u8)> {
    B::LETTERS
        .iter()
        .enumerate()
        .map(|(kind, &l)| (l as char, rules.strength[kind]))
        .collect()
}

/// The in-memory builder of the animal tables one piece past `max`.
fn animal_builder<B: zoo_animal::Board>(
    dir: &Path,
    rules: &'static zoo_animal::RuleSet,
    max: u32,
) -> Arc<dyn zoo_core::MaterialBuilder<zoo_animal::Position<B>>> {
    Arc::new(zoo_animal_tb::memory::InMemory::<B>::open(dir, rules, max))
}

fn animal_tables<B: zoo_animal::Board>(
    dir: &Path,
    rules: &'static zoo_animal::RuleSet,
) -> Option<OpenedTables<zoo_animal::Position<B>>> {
    zoo_animal_tb::TbOracle::<B>::open(dir, rules).map(|o| OpenedTables {
        description: o.describe(dir),
        builder: Some(animal_builder::<B>(dir, rules, o.complete_pieces())),
        oracle: Arc::new(o),
    })
}

impl AppGame for zoo_animal::JunglePos {
    const KIND: GameKind = GameKind::Jungle;
    fn open_tables(
        dir: &Path,
        rules: &Self::Rules,
    ) -> Result<Option<OpenedTables<Self>>, AppError> {
        Ok(animal_tables::<zoo_animal::Jungle>(dir, rules))
    }
    type Scheme = zoo_animal_tb::AnimalScheme<zoo_animal::Jungle>;
    fn strengths(rules: &Self::Rules) -> Vec<(char, u8)> {
        animal_strengths::<zoo_animal::Jungle>(rules)
    }
    fn material_builder(
        dir: &Path,
        rules: &Self::Rules,
        max: u32,
    ) -> Option<Arc<dyn zoo_core::MaterialBuilder<Self>>> {
        Some(animal_builder::<zoo_animal::Jungle>(dir, rules, max))
    }
}

impl AppGame for zoo_animal::JungleCheckersPos {
    const KIND: GameKind = GameKind::JungleCheckers;
    fn open_tables(
        dir: &Path,
        rules: &Self::Rules,
    ) -> Result<Option<OpenedTables<Self>>, AppError> {
        Ok(animal_tables::<zoo_animal::JungleCheckers>(dir, rules))
    }
    type Scheme = zoo_animal_tb::AnimalScheme<zoo_animal::JungleCheckers>;
    fn strengths(rules: &Self::Rules) -> Vec<(char, u8)> {
        animal_strengths::<zoo_animal::JungleCheckers>(rules)
    }
    fn material_builder(
        dir: &Path,
        rules: &Self::Rules,
        max: u32,
    ) -> Option<Arc<dyn zoo_core::MaterialBuilder<Self>>> {
        Some(animal_builder::<zoo_animal::JungleCheckers>(
            dir, rules, max,
        ))
    }
}

fn scheme_tables<S: zoo_core::TableScheme>(
    dir: &Path,
    rules: &<S::Pos as Game>::Rules,
) -> Option<OpenedTables<S::Pos>> {
    zoo_tb::oracle::TbOracle::<S>::open(dir, rules.clone()).map(|o| OpenedTables {
        description: o.describe(dir),
        oracle: Arc::new(o),
        builder: None,
    })
}

impl AppGame for zoo_checkers::ClassicalPos {
    const KIND: GameKind = GameKind::ClassicalCheckers;
    fn open_tables(
        dir: &Path,
        rules: &Self::Rules,
    ) -> Result<Option<OpenedTables<Self>>, AppError> {
        Ok(scheme_tables::<zoo_checkers::tables::ClassicalScheme>(
            dir, rules,
        ))
    }
    type Scheme = zoo_checkers::tables::ClassicalScheme;
}

impl AppGame for zoo_checkers::EnglishPos {
    const KIND: GameKind = GameKind::EnglishCheckers;
    fn open_tables(
        dir: &Path,
        rules: &Self::Rules,
    ) -> Result<Option<OpenedTables<Self>>, AppError> {
        Ok(scheme_tables::<zoo_checkers::tables::EnglishScheme>(
            dir, rules,
        ))
    }
    type Scheme = zoo_checkers::tables::EnglishScheme;
}

/// The name of `G`'s game as the registry knows it.
pub fn kind_of<G: AppGame>() -> GameKind {
    G::KIND
}

/// The rule set named `name` of game `G` (`None`: the default).
pub fn rules_of<G: Game>(name: Option<&str>) -> Result<G::Rules, AppError> {
    Ok(match name {
        Some(name) => G::rules_by_name(name)?,
        None => G::default_rules(),
    })
}

/// The position `fen` under `rules` (`None`: the start position).
pub fn position_of<G: Game>(rules: &G::Rules, fen: Option<&str>) -> Result<G, AppError> {
    Ok(match fen {
        Some(f) => G::from_fen(f, rules)?,
        None => G::start(rules),
    })
}

/// Runs code with the board type of a game that has endgame tables.
pub trait TableVisitor {
    /// What the visit gives back.
    type Output;
    /// Runs with `B`, the board of the chosen animal game.
    fn visit<B: zoo_animal::Board>(self) -> Self::Output;
}

/// Runs code with the table scheme of a game whose tables the generic
/// generator builds.
pub trait SchemeVisitor {
    /// What the visit gives back.
    type Output;
    /// Runs with `S`, the chosen game's table scheme.
    fn visit<S: SchemeTables>(self) -> Self::Output;
}

/// A table scheme whose tables `zoo tb` builds with the generic generator
/// (`zoo_tb::retro`).
pub trait SchemeTables: TableScheme<Pos: AppGame> {
    /// The index of one stored material's table.
    type Index: TableIndex<Self::Pos>;
    /// The index of stored material `m`'s table.
    fn index_of(&self, m: Self::Material) -> Self::Index;
    /// Every other stored material a game from `m` can reach: the tables
    /// that must be there before `m`'s is built.
    fn needs(&self, m: Self::Material) -> Vec<Self::Material>;
    /// The stored tables a `--material` name stands for: the one it names,
    /// or all of a material's stored parts where the tables split it.
    fn named(&self, name: &str) -> Option<Vec<Self::Material>> {
        self.parse(name).map(|m| vec![m])
    }
    /// The stored material whose table, read with the colours swapped,
    /// is `m`'s (`crate::tables::scheme_copy`); `None` where there is
    /// none (a material that is its own swap).
    fn colour_source(&self, m: Self::Material) -> Option<Self::Material> {
        let _ = m;
        None
    }
}
