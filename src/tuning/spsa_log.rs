//! An SPSA run's log: JSON lines, the run's settings first, then one line
//! per step with both engines' values, the games' outcome and the new
//! estimate. Every line is written whole and flushed, so a run stopped at
//! any moment resumes from its last finished step.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::spsa::{Schedule, SpsaParam, SpsaState};

/// What must match for a log to be resumed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    pub game: String,
    pub engine: String,
    pub params: Vec<SpsaParam>,
    pub schedule: Schedule,
    pub pairs_per_step: usize,
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepLine {
    pub step: usize,
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// After the step.
    pub pairs_done: usize,
    pub theta: Vec<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum LogLine {
    Run(RunSettings),
    Step(StepLine),
}

/// An open log, positioned after its last finished step.
pub struct SpsaLog {
    path: PathBuf,
    file: File,
    pub steps: Vec<StepLine>,
}

impl SpsaLog {
    /// Starts a new log; refuses to overwrite one that holds steps.
    pub fn create(path: &Path, settings: &RunSettings) -> Result<Self, String> {
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            return Err(format!(
                "'{}' already holds a run: pass --resume to continue it, or choose another log",
                path.display()
            ));
        }
        let mut log = SpsaLog {
            path: path.to_owned(),
            file: File::create(path)
                .map_err(|e| format!("cannot create '{}': {e}", path.display()))?,
            steps: Vec::new(),
        };
        log.append(&LogLine::Run(settings.clone()))?;
        Ok(log)
    }

    /// Opens a log to continue it with the same settings. A last line cut
    /// off mid-write (the run was killed) is dropped.
    pub fn resume(path: &Path, settings: &RunSettings) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        let mut lines: Vec<&str> = text.lines().collect();
        if !text.ends_with('\n') && lines.pop().is_some() {
            log::warn!("{}: dropped an unfinished last line", path.display());
        }
        let mut parsed = lines.iter().enumerate().map(|(index, line)| {
            serde_json::from_str::<LogLine>(line)
                .map_err(|e| format!("{} line {}: {e}", path.display(), index + 1))
        });
        match parsed.next().transpose()? {
            Some(LogLine::Run(logged)) => check_same_run(&logged, settings)?,
            _ => return Err(format!("{} does not start with a run line", path.display())),
        }
        let mut steps = Vec::new();
        for line in parsed {
            match line? {
                LogLine::Step(step) if step.theta.len() == settings.params.len() => {
                    steps.push(step)
                }
                _ => return Err(format!("{}: a step line out of place", path.display())),
            }
        }
        let kept: String = lines.iter().map(|line| format!("{line}\n")).collect();
        std::fs::write(path, kept)
            .map_err(|e| format!("cannot rewrite '{}': {e}", path.display()))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open '{}': {e}", path.display()))?;
        Ok(SpsaLog {
            path: path.to_owned(),
            file,
            steps,
        })
    }

    /// The estimate after the last finished step.
    pub fn state(&self, params: &[SpsaParam]) -> SpsaState {
        match self.steps.last() {
            Some(step) => SpsaState {
                pairs_done: step.pairs_done,
                theta: step.theta.clone(),
            },
            None => SpsaState::start(params),
        }
    }

    pub fn record(&mut self, step: StepLine) -> Result<(), String> {
        self.append(&LogLine::Step(step.clone()))?;
        self.steps.push(step);
        Ok(())
    }

    fn append(&mut self, line: &LogLine) -> Result<(), String> {
        let mut text = serde_json::to_string(line).map_err(|e| e.to_string())?;
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write '{}': {e}", self.path.display()))
    }
}

fn check_same_run(logged: &RunSettings, asked: &RunSettings) -> Result<(), String> {
    let differs = |what: &str| {
        Err(format!(
            "the log's run has another {what} than this command; resume with the same settings"
        ))
    };
    if logged.game != asked.game {
        return differs("game");
    }
    if logged.engine != asked.engine {
        return differs("--engine (command, limits or fixed options)");
    }
    if logged.params != asked.params {
        return differs("parameter list");
    }
    if logged.schedule != asked.schedule {
        return differs("schedule (--pairs or gains)");
    }
    if logged.pairs_per_step != asked.pairs_per_step {
        return differs("--pairs-per-step");
    }
    if logged.seed != asked.seed {
        return differs("--seed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> RunSettings {
        RunSettings {
            game: "breakthrough".to_owned(),
            engine: "./bt".to_owned(),
            params: vec![SpsaParam {
                name: "X".to_owned(),
                start: 3.0,
                min: 0.0,
                max: 8.0,
                c_end: 1.0,
                r_end: 0.002,
            }],
            schedule: Schedule::new(10),
            pairs_per_step: 2,
            seed: 1,
        }
    }

    fn step(index: usize) -> StepLine {
        StepLine {
            step: index,
            plus: vec![4],
            minus: vec![2],
            wins: 3,
            losses: 1,
            draws: 0,
            pairs_done: 2 * (index + 1),
            theta: vec![3.0 + index as f64],
        }
    }

    #[test]
    fn a_log_resumes_at_its_last_whole_step() {
        let dir = std::env::temp_dir().join(format!("spsa-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.jsonl");
        let _ = std::fs::remove_file(&path);
        let mut log = SpsaLog::create(&path, &settings()).unwrap();
        log.record(step(0)).unwrap();
        log.record(step(1)).unwrap();
        drop(log);
        assert!(SpsaLog::create(&path, &settings()).is_err());
        // A kill in the middle of a line.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"step\":{\"step\":2,\"pl").unwrap();
        drop(file);
        let mut log = SpsaLog::resume(&path, &settings()).unwrap();
        assert_eq!(log.steps, [step(0), step(1)]);
        assert_eq!(log.state(&settings().params).theta, [4.0]);
        log.record(step(2)).unwrap();
        let again = SpsaLog::resume(&path, &settings()).unwrap();
        assert_eq!(again.steps.len(), 3);
        let mut other = settings();
        other.seed = 2;
        let refused = SpsaLog::resume(&path, &other).err().unwrap();
        assert!(refused.contains("--seed"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
