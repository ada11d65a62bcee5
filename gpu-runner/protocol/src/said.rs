//! What the grader said about a script, as data: which sentence and its numbers, worded in the
//! reader's language only when it is shown. A verdict stores these beside the English text it
//! has always carried, so the web app shows a check in Korean to a Korean reader, `lockstep
//! submit --lang=ko` prints it in Korean, and readers of older verdicts (which have only the
//! English text) keep working.
//!
//! Each sentence is written in both languages in one place, [`sentences!`]: a sentence without
//! its Korean does not compile. Korean sentences avoid particles right after a number or a name
//! (은/는, 이/가 depend on its last sound) and use 의, 에서, 개 instead.

use lockstep_routes::Lang;
use lockstep_units::{count, plural};
use serde::{Deserialize, Serialize};

use crate::CheckId;

/// Declares [`Said`] and [`Said::say`] from one list: each sentence, its fields, and its English
/// and Korean wording as expressions over the fields (bound by reference) and `$lang`.
macro_rules! sentences {
    (|$lang:ident| $($(#[doc = $doc:literal])* $variant:ident { $($field:ident: $ty:ty),* $(,)? }
        => en: $en:expr, ko: $ko:expr;)*) => {
        /// One sentence the grader said, by id (`sentence` in JSON) with its numbers.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "sentence", rename_all = "snake_case")]
        pub enum Said {
            $($(#[doc = $doc])* $variant { $($field: $ty),* },)*
        }

        impl Said {
            /// The sentence in `lang`.
            #[allow(unused_variables)]
            pub fn say(&self, $lang: Lang) -> String {
                match self {
                    $(Said::$variant { $($field),* } => lockstep_lang::say($lang, &[
                        (Lang::En, &|| String::from($en)),
                        (Lang::Ko, &|| String::from($ko)),
                    ]),)*
                }
            }

            /// One of each sentence, its fields at their defaults: for tests over every one.
            #[cfg(test)]
            fn every() -> Vec<Said> {
                vec![$(Said::$variant { $($field: Default::default()),* },)*]
            }
        }
    };
}

impl Default for Said {
    fn default() -> Said {
        Said::Text { text: String::new() }
    }
}

/// `items` worded one by one and joined with `sep`.
fn join<T>(items: &[T], sep: &str, word: impl Fn(&T) -> String) -> String {
    items.iter().map(word).collect::<Vec<_>>().join(sep)
}

/// Per-rank figures, worded with their rank and joined with commas.
fn ranked(per_rank: &[u64], word: impl Fn(usize, u64) -> String) -> String {
    per_rank.iter().enumerate().map(|(r, &n)| word(r, n)).collect::<Vec<_>>().join(", ")
}

/// Ranks as a set, as the English sentences have always shown them: `{0, 1}`.
fn set(ranks: &[u32]) -> String {
    format!("{{{}}}", join(ranks, ", ", u32::to_string))
}

/// Where the grader killed a rank in the run it interrupted on purpose.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Killed {
    pub rank: u32,
    pub epoch: u32,
    pub batch: u64,
}

impl Killed {
    /// As the start of a sentence.
    pub fn say(&self, lang: Lang) -> String {
        let Killed { rank, epoch, batch } = self;
        lockstep_lang::say(
            lang,
            &[
                (Lang::En, &|| {
                    format!("rank {rank} was killed in epoch {epoch}, before its batch {batch}")
                }),
                (Lang::Ko, &|| {
                    format!(
                        "epoch {epoch}에서 rank {rank}의 batch {batch} 직전에 그 rank를 종료했고,"
                    )
                }),
            ],
        )
    }
}

/// How many epochs the crashed job trained before and after its restart, beside the
/// uninterrupted run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resumption {
    /// Epochs finished before the crash, and their sampler epochs (`0, 1`).
    pub done: u64,
    pub before: String,
    /// Epochs trained after the restart.
    pub again: u64,
    /// Epochs the uninterrupted run trained.
    pub total: u64,
}

impl Resumption {
    fn say(&self, lang: Lang) -> String {
        let Resumption { done, before, again, total } = self;
        lockstep_lang::say(
            lang,
            &[
                (Lang::En, &|| {
                    format!(
                    "{done} epoch(s) finished before the crash ({before}); after the restart {again} epoch(s) were trained; the uninterrupted run trained {total}"
                )
                }),
                (Lang::Ko, &|| {
                    format!(
                    "crash 전에 끝난 epoch {done}개 ({before}), 재시작 후 학습한 epoch {again}개, 중단 없는 run의 epoch {total}개"
                )
                }),
            ],
        )
    }
}

sentences! { |lang|
    /// Text that is the same in every language: what Python said, a path.
    Text { text: String }
        => en: text.as_str(), ko: text.as_str();

    // --- launched, ddp_wrapped, no_deadlock
    NoInit { started: u32 }
        => en: format!("no rank called init_process_group (of {started} started)"),
           ko: format!("init_process_group을 부른 rank가 없습니다 (시작한 프로세스 {started}개)");
    HintInit {}
        => en: "call dist.init_process_group() before anything distributed; torchrun supplies the rank, world size and address",
           ko: "분산 작업 전에 dist.init_process_group()을 부르세요. rank, world size, 주소는 torchrun이 환경 변수로 넘겨 줍니다";
    OneGroup { n: u32, backend: String }
        => en: format!("all {n} ranks joined one process group ({backend}, world size {n})"),
           ko: format!("rank {n}개가 모두 한 process group에 들어갔습니다 ({backend}, world size {n})");
    PartlyJoined { n: u32, joined: Vec<(u32, u32)> }
        => en: format!("{} of {n} processes joined a process group: {}", joined.len(),
                   join(joined, ", ", |(r, w)| format!("rank {r} (world size {w})"))),
           ko: format!("프로세스 {n}개 중 {}개만 process group에 들어갔습니다: {}", joined.len(),
                   join(joined, ", ", |(r, w)| format!("rank {r} (world size {w})")));
    HintEnvInit {}
        => en: "let init_process_group read RANK, WORLD_SIZE and MASTER_ADDR from torchrun's environment instead of setting them yourself",
           ko: "RANK, WORLD_SIZE, MASTER_ADDR를 직접 정하지 말고, init_process_group이 torchrun이 만든 환경 변수에서 읽게 두세요";
    Wrapped { values: u64, site: Option<String> }
        => en: format!("every rank wrapped its model in DistributedDataParallel ({} trainable values{})",
                   count(*values), site.as_ref().map(|s| format!(", at {s}")).unwrap_or_default()),
           ko: format!("모든 rank가 모델을 DistributedDataParallel로 감쌌습니다 (학습할 값 {}개{})",
                   count(*values), site.as_ref().map(|s| format!(", 위치 {s}")).unwrap_or_default());
    NoDdpByHand { calls: u64 }
        => en: format!("no rank constructed DistributedDataParallel; rank 0 called all_reduce {} times itself, averaging the gradients by hand", count(*calls)),
           ko: format!("DistributedDataParallel을 만든 rank가 없습니다. rank 0이 all_reduce를 직접 {}번 불러 gradient를 손으로 평균 냈습니다", count(*calls));
    NoDdp {}
        => en: "no rank constructed DistributedDataParallel",
           ko: "DistributedDataParallel을 만든 rank가 없습니다";
    SomeDdp { ranks: Vec<u32>, n: u32 }
        => en: format!("only ranks {ranks:?} of {n} constructed DistributedDataParallel"),
           ko: format!("rank {n}개 중 {ranks:?}만 DistributedDataParallel을 만들었습니다");
    HintDdpNotByHand {}
        => en: "wrap the model with DDP(model, device_ids=[local_rank]) and drop the hand-written all_reduce: DDP averages the gradients in buckets, overlapped with the backward pass",
           ko: "모델을 DDP(model, device_ids=[local_rank])로 감싸고 직접 쓴 all_reduce는 지우세요. DDP가 gradient를 bucket 단위로, backward와 겹쳐서 평균 냅니다";
    HintDdp {}
        => en: "wrap the model with DDP(model, device_ids=[local_rank]) after moving it to the rank's device",
           ko: "모델을 rank의 device로 옮긴 다음 DDP(model, device_ids=[local_rank])로 감싸세요";
    LeftEveryCollective { per_rank: Vec<u64> }
        => en: format!("every rank left every collective it entered ({per_rank:?} collectives per rank)"),
           ko: format!("모든 rank가 들어간 collective를 전부 빠져나왔습니다 (rank별 collective 수 {per_rank:?})");
    /// `others`: each other rank, the calls it made at that site, and whether it finished.
    Deadlock { rank: u32, op: String, site: Option<String>, others: Vec<(u32, u64, bool)> }
        => en: format!("rank {rank} waited in {op}(){} that the other ranks never reached ({})",
                   site.as_ref().map(|s| format!(" at {s}")).unwrap_or_default(),
                   join(others, "; ", |(r, calls, done)| format!("rank {r} made {calls} such call(s) there and {}",
                       if *done { "finished" } else { "did not finish" }))),
           ko: format!("rank {rank}: {op}(){}에서 기다렸지만 다른 rank는 그 호출에 오지 않았습니다 ({})",
                   site.as_ref().map(|s| format!(" ({s})")).unwrap_or_default(),
                   join(others, "; ", |(r, calls, done)| format!("rank {r}: 그 자리에서 {calls}번 호출, {}",
                       if *done { "끝까지 실행" } else { "끝나지 못함" })));
    HintDeadlock {}
        => en: "every rank must call every collective: move the barrier (or all_reduce) out of the if rank == 0 block",
           ko: "collective는 모든 rank가 불러야 합니다. barrier(또는 all_reduce)를 if rank == 0 블록 밖으로 옮기세요";

    // --- rank0_logging
    LoggedOnOthers { on_rank0: u64, others: Vec<(u32, u64)>, example: String }
        => en: format!("loss lines: rank 0 printed {on_rank0}, {} (for example \"{example}\")",
                   join(others, ", ", |(r, c)| format!("rank {r} printed {c}"))),
           ko: format!("loss 줄 수: rank 0 {on_rank0}줄, {} (예: \"{example}\")",
                   join(others, ", ", |(r, c)| format!("rank {r} {c}줄")));
    HintLogRank0 {}
        => en: "print from rank 0 only (if dist.get_rank() == 0), after averaging the loss across ranks with all_reduce",
           ko: "loss를 all_reduce로 rank 간에 평균 낸 뒤, rank 0에서만 출력하세요 (if dist.get_rank() == 0)";
    NoLoss { epochs: u64 }
        => en: format!("no rank printed a loss line ({epochs} epochs ran)"),
           ko: format!("loss를 출력한 rank가 없습니다 (실행한 epoch {epochs}개)");
    HintLogEpoch {}
        => en: "print the epoch's loss on rank 0 once per epoch, as the single-GPU script did",
           ko: "single-GPU 스크립트처럼 epoch마다 한 번, rank 0에서 그 epoch의 loss를 출력하세요";
    FewLosses { on_rank0: u64, epochs: u64 }
        => en: format!("rank 0 printed {on_rank0} loss lines for {epochs} epochs"),
           ko: format!("epoch {epochs}개 동안 rank 0이 출력한 loss 줄은 {on_rank0}줄입니다");
    HintLogOnce {}
        => en: "print the loss once per epoch, on rank 0",
           ko: "loss는 epoch마다 한 번, rank 0에서 출력하세요";
    LoggedOnRank0 { lines: u64, epochs: u64 }
        => en: format!("only rank 0 printed loss lines: {lines} for {epochs} epochs"),
           ko: format!("rank 0만 loss를 출력했습니다: epoch {epochs}개에 {lines}줄");

    // --- replicas_in_sync
    NoParams {}
        => en: "not every rank ended with a model whose parameters could be saved (a DDP model, or an optimizer's parameters)",
           ko: "파라미터를 저장할 수 있는 모델(DDP 모델이나 optimizer의 파라미터)로 끝난 rank가 전부는 아닙니다";
    Rank0ParamsUnread {}
        => en: "rank 0's final parameters could not be read",
           ko: "rank 0의 최종 파라미터를 읽을 수 없었습니다";
    ParamsUnread { rank: u32 }
        => en: format!("rank {rank}'s final parameters could not be read"),
           ko: format!("rank {rank}의 최종 파라미터를 읽을 수 없었습니다");
    /// `by_hand`: no DDP model, so the optimizer's parameters were compared.
    InSync { ranks: u64, tensors: u64, values: u64, by_hand: bool }
        => en: format!("all {ranks} ranks ended with identical parameters, bit for bit ({tensors} tensors, {} values{})",
                   count(*values), if *by_hand { "; no DDP model, so these are the parameters the optimizer updates" } else { "" }),
           ko: format!("rank {ranks}개가 모두 비트 하나 다르지 않은 같은 파라미터로 끝났습니다 (tensor {tensors}개, 값 {}개{})",
                   count(*values), if *by_hand { "; DDP 모델이 없어 optimizer가 갱신하는 파라미터를 비교함" } else { "" });
    Diverged { rank: u32, name: String, by: f64, by_hand: bool }
        => en: format!("rank {rank}'s {name} differs from rank 0's by up to {by:.3e}{}",
                   if *by_hand { "; no DDP model, so these are the parameters the optimizer updates" } else { "" }),
           ko: format!("rank {rank}의 {name}: rank 0과 최대 {by:.3e} 차이{}",
                   if *by_hand { " (DDP 모델이 없어 optimizer가 갱신하는 파라미터를 비교함)" } else { "" });
    /// Where no difference is a number: a NaN or an infinity on one side only, or another shape.
    DivergedNotFinite { rank: u32, name: String, by_hand: bool }
        => en: format!("rank {rank}'s {name} differs from rank 0's: NaN or infinite values on one side only, or another shape{}",
                   if *by_hand { "; no DDP model, so these are the parameters the optimizer updates" } else { "" }),
           ko: format!("rank {rank}의 {name}: rank 0과 다릅니다. 한쪽에만 NaN이나 무한대 값이 있거나 shape가 다릅니다{}",
                   if *by_hand { " (DDP 모델이 없어 optimizer가 갱신하는 파라미터를 비교함)" } else { "" });
    HintNothingAverages {}
        => en: "without DDP nothing averages the gradients between ranks: wrap the model in DistributedDataParallel, which all-reduces them during backward",
           ko: "DDP가 없으면 rank 사이에서 gradient를 평균 내는 것이 없습니다. 모델을 DistributedDataParallel로 감싸면 backward 중에 all-reduce합니다";
    HintBypassed {}
        => en: "a rank never called the DDP model itself (forward through .module skips DDP's gradient all-reduce): call model(x), not model.module(x), when training",
           ko: "DDP 모델을 직접 부르지 않은 rank가 있습니다 (.module로 forward하면 DDP의 gradient all-reduce를 건너뜁니다). 학습할 때는 model.module(x)가 아니라 model(x)를 부르세요";
    HintSameGradients {}
        => en: "every rank must apply the same averaged gradients: train through the DDP model and change parameters only with the optimizer, on every rank",
           ko: "모든 rank가 같은 평균 gradient를 적용해야 합니다. DDP 모델로 학습하고, 파라미터는 모든 rank에서 optimizer로만 바꾸세요";

    // --- checkpoint_rank0_only, checkpoint_unwrapped
    NoCheckpoint {}
        => en: "no rank saved a checkpoint with torch.save",
           ko: "torch.save로 checkpoint를 저장한 rank가 없습니다";
    HintSaveCheckpoint {}
        => en: "save the trained model's state_dict on rank 0 at the end, as the exercise asks",
           ko: "실습이 요구하는 대로, 학습이 끝나면 rank 0에서 모델의 state_dict를 저장하세요";
    CheckpointByRank0 { paths: String }
        => en: format!("only rank 0 wrote the checkpoint ({paths})"),
           ko: format!("rank 0만 checkpoint를 썼습니다 ({paths})");
    CheckpointByMany { ranks: Vec<u32>, paths: String }
        => en: format!("ranks {} wrote checkpoints ({paths})", set(ranks)),
           ko: format!("checkpoint를 쓴 rank: {} ({paths})", set(ranks));
    HintGuardSave {}
        => en: "guard torch.save with if dist.get_rank() == 0: every rank holds the same weights, and N ranks writing one file race",
           ko: "torch.save를 if dist.get_rank() == 0으로 감싸세요. 모든 rank의 weight가 같으니 하나면 충분하고, N개 rank가 한 파일에 쓰면 서로 경쟁합니다";
    NoCheckpointSaved {}
        => en: "no checkpoint was saved",
           ko: "저장된 checkpoint가 없습니다";
    /// `equals_final`: whether the checkpoint equals the final parameters, when that is known.
    Unprefixed { path: String, keys: u64, first: String, equals_final: Option<bool> }
        => en: format!("{path}: {keys} keys without a module. prefix (first: {first}){}", final_words(*equals_final, Lang::En)),
           ko: format!("{path}: module. 접두사 없는 key {keys}개 (첫 key: {first}){}", final_words(*equals_final, Lang::Ko));
    Prefixed { path: String, prefixed: u64, keys: u64, first: String, equals_final: Option<bool> }
        => en: format!("{path}: {prefixed} of {keys} keys start with module. (first: {first}){}", final_words(*equals_final, Lang::En)),
           ko: format!("{path}: key {keys}개 중 {prefixed}개가 module.로 시작합니다 (첫 key: {first}){}", final_words(*equals_final, Lang::Ko));
    HintSaveModule {}
        => en: "save model.module.state_dict(), the unwrapped model, so the checkpoint loads into a plain model without DDP",
           ko: "감싸지 않은 모델인 model.module.state_dict()를 저장하세요. 그래야 DDP 없는 일반 모델에 checkpoint가 로드됩니다";

    // --- sampler_sharding, sampler_set_epoch
    NoPass {}
        => en: "not every rank completed a pass over a DataLoader",
           ko: "DataLoader를 한 바퀴 다 돈 rank가 전부는 아닙니다";
    NoDatasetLength {}
        => en: "the DataLoader's dataset has no length",
           ko: "DataLoader의 dataset에 길이(len)가 없습니다";
    /// `reads`: samples per rank; `padding`: the repeats DistributedSampler allows, on a pass.
    Shards { reads: Vec<u64>, duplicates: u64, unique: u64, len: u64, padding: Option<u64> }
        => en: format!("first epoch: {}; {} read by more than one rank; together {} of {}{}",
                   ranked(reads, |r, n| format!("rank {r} read {}", count(n))),
                   count(*duplicates), count(*unique), plural(*len, "sample", "samples"),
                   padding.map(|p| format!(" (padding allows {p})")).unwrap_or_default()),
           ko: format!("첫 epoch: {}; 두 rank 이상이 읽은 샘플 {}개; 합쳐서 {}개 중 {}개{}",
                   ranked(reads, |r, n| format!("rank {r} {}개", count(n))),
                   count(*duplicates), count(*len), count(*unique),
                   padding.map(|p| format!(" (padding으로 {p}개까지 허용)")).unwrap_or_default());
    HintUneven {}
        => en: "the ranks read shards of different sizes: DistributedSampler gives every rank the same number of samples (padding or dropping the tail), which DDP needs, since a rank with fewer batches leaves the others waiting in all-reduce",
           ko: "rank마다 읽은 shard의 크기가 다릅니다. DistributedSampler는 (padding하거나 끝을 버려서) 모든 rank에 같은 수의 샘플을 줍니다. batch가 적은 rank는 나머지 rank를 all-reduce에서 기다리게 하므로 DDP에는 이것이 필요합니다";
    HintWholeDataset {}
        => en: "every rank iterated the whole dataset: give the DataLoader a DistributedSampler (and no shuffle=True) so each rank reads its own shard",
           ko: "모든 rank가 dataset 전체를 읽었습니다. DataLoader에 DistributedSampler를 주고 shuffle=True는 빼서, rank마다 자기 shard만 읽게 하세요";
    HintOverlap {}
        => en: "the ranks' shards overlap: let DistributedSampler read the rank and world size from the process group, or pass dist.get_rank() and dist.get_world_size()",
           ko: "rank들의 shard가 겹칩니다. DistributedSampler가 process group에서 rank와 world size를 읽게 두거나, dist.get_rank()와 dist.get_world_size()를 넘기세요";
    FewPasses { passes: u64 }
        => en: format!("rank 0 completed {passes} pass(es) over its DataLoader; two are needed to compare"),
           ko: format!("rank 0이 DataLoader를 {passes}번 돌았습니다. 비교하려면 두 번이 필요합니다");
    OrderChanged { epochs: u64, first: String, second: String }
        => en: format!("rank 0's order changed every epoch over {epochs} epochs (first indices [{first}…] then [{second}…])"),
           ko: format!("epoch {epochs}개 동안 rank 0의 순서가 매번 바뀌었습니다 (첫 index [{first}…], 다음 [{second}…])");
    /// `sampler_epochs`: the sampler's epoch at each pass, `-` where it had none.
    OrderRepeated { same: u64, epochs: u64, first: String, sampler_epochs: String }
        => en: format!("rank 0 read the same order in {same} of {epochs} epochs (first indices [{first}…]; sampler epoch per pass: {sampler_epochs})"),
           ko: format!("rank 0이 epoch {epochs}개 중 {same}개에서 같은 순서로 읽었습니다 (첫 index [{first}…]; pass별 sampler epoch: {sampler_epochs})");
    HintSetEpochSeed {}
        => en: "call sampler.set_epoch(epoch) at the start of every epoch: the shuffle is seeded with seed + epoch, so without it every epoch replays the first",
           ko: "epoch마다 시작할 때 sampler.set_epoch(epoch)를 부르세요. shuffle의 seed가 seed + epoch라서, 부르지 않으면 모든 epoch가 첫 epoch의 순서를 되풀이합니다";
    HintShuffle {}
        => en: "the sampler does not shuffle: construct DistributedSampler with shuffle=True (the default)",
           ko: "sampler가 섞지 않습니다. DistributedSampler를 shuffle=True(기본값)로 만드세요";
    HintOrderChanges {}
        => en: "the order must change between epochs: call sampler.set_epoch(epoch) with the epoch number",
           ko: "epoch마다 순서가 바뀌어야 합니다. epoch 번호로 sampler.set_epoch(epoch)를 부르세요";

    // --- speedup
    NotTimedAsked {}
        => en: "this grade was asked not to time the speedup",
           ko: "이번 채점은 speedup을 재지 않도록 요청받았습니다";
    NotMeasured { why: Box<Said> }
        => en: format!("not measured: {}", why.say(lang)),
           ko: format!("측정하지 않음: {}", why.say(lang));
    EpochsIncomplete { n: u32 }
        => en: format!("the {n}-process run did not complete its epochs"),
           ko: format!("프로세스 {n}개 run이 epoch를 끝내지 못했습니다");
    NoSteadyEpoch { n: u32 }
        => en: format!("the {n}-process run completed no steady-state epoch"),
           ko: format!("프로세스 {n}개 run에서 끝난 steady-state epoch가 없습니다");
    /// The figures of the timed runs: throughputs (samples/s), the ratio against its threshold,
    /// the epochs behind each median, one rank's last epoch, the all-reduce's share, the other
    /// load on the machine, and how often the runs were repeated because it was busy.
    Speedup { n: u32, tn: f64, t1: f64, ratio: f64, min: f64, epochs_n: u64, epochs_1: u64,
              secs_n: f64, secs_1: f64, samples: u64, steps: u64, batch: Option<u64>,
              allreduce_ms: Option<f64>, busy: Option<(f64, f64)>, remeasured: u32 }
        => en: format!(
               "{n} processes: {tn:.0} samples/s against {t1:.0} for 1 process = {ratio:.2}× (threshold {min:.2}×; medians of {epochs_n} and {epochs_1} steady-state epochs, {secs_n:.2} s and {secs_1:.2} s each); per rank {} samples in {} steps{}{}{}{}",
               count(*samples), count(*steps), batch.map(|b| format!(" of {b}")).unwrap_or_default(),
               allreduce_ms.map(|ms| {
                   let per_epoch = ms * *steps as f64 / 1000.0;
                   format!("; one all-reduce of the gradients took {ms:.2} ms, {:.0} ms per epoch ({:.0}% of it)", per_epoch * 1000.0, 100.0 * per_epoch / secs_n)
               }).unwrap_or_default(),
               busy.map(|(a, b)| format!("; other work on the machine meanwhile: up to {a:.2} cores during the {n}-process runs, {b:.2} during the 1-process runs")).unwrap_or_default(),
               if *remeasured > 0 { format!("; measured again {remeasured} time(s) because the machine was busy") } else { String::new() }),
           ko: format!(
               "프로세스 {n}개: 초당 샘플 {tn:.0}개, 프로세스 1개는 {t1:.0}개 = {ratio:.2}× (기준 {min:.2}×; steady-state epoch {epochs_n}개와 {epochs_1}개의 중앙값, epoch당 {secs_n:.2} s와 {secs_1:.2} s); rank당 샘플 {}개, step {}번{}{}{}{}",
               count(*samples), count(*steps), batch.map(|b| format!(" (batch 크기 {b})")).unwrap_or_default(),
               allreduce_ms.map(|ms| {
                   let per_epoch = ms * *steps as f64 / 1000.0;
                   format!("; gradient all-reduce 한 번에 {ms:.2} ms, epoch당 {:.0} ms (epoch 시간의 {:.0}%)", per_epoch * 1000.0, 100.0 * per_epoch / secs_n)
               }).unwrap_or_default(),
               busy.map(|(a, b)| format!("; 그동안 이 machine의 다른 작업: 프로세스 {n}개 run 중 최대 {a:.2} core, 프로세스 1개 run 중 {b:.2} core")).unwrap_or_default(),
               if *remeasured > 0 { format!("; machine이 바빠서 {remeasured}번 다시 측정") } else { String::new() });
    HintNotDivided {}
        => en: "the processes did not divide the work: with a DistributedSampler each of N ranks reads 1/N of the data per epoch",
           ko: "프로세스들이 일을 나누지 않았습니다. DistributedSampler를 쓰면 N개 rank가 epoch마다 각자 데이터의 1/N을 읽습니다";
    HintBusyMachine { n: u32, cores: f64 }
        => en: format!("other work was using this machine while it was measured (up to {cores:.2} cores), which slows the {n}-process runs most: submit again; if it still fails on a quiet machine, the per-step communication is too large for the work, as the lesson explains"),
           ko: format!("측정하는 동안 다른 작업이 이 machine을 쓰고 있었고(최대 {cores:.2} core), 이것은 프로세스 {n}개 run을 가장 많이 늦춥니다. 다시 제출해 보세요. 조용한 machine에서도 실패한다면, 레슨에서 설명하듯 계산에 비해 step마다의 통신이 너무 큰 것입니다");
    HintCommunicationBound { busy: Option<f64> }
        => en: format!("the conversion divides the work but is communication-bound: every step all-reduces every gradient and waits for the other ranks, and with small batches that costs more than the computing saved. Use a larger per-rank batch (fewer steps, the same all-reduce per step), or accumulate gradients over several steps with model.no_sync(); also avoid barriers, .item() or all_reduce calls inside the loop.{}",
                   busy.map(|b| format!(" (Other work was also using this machine, up to {b:.2} cores, which lowers the figure somewhat.)")).unwrap_or_default()),
           ko: format!("일은 나눴지만 통신이 병목입니다. step마다 모든 gradient를 all-reduce하고 다른 rank를 기다리는데, batch가 작으면 그 비용이 아낀 계산보다 큽니다. rank당 batch를 키우거나(step 수는 줄고 step당 all-reduce는 그대로), model.no_sync()로 여러 step의 gradient를 모으세요. loop 안의 barrier, .item(), all_reduce 호출도 피하세요.{}",
                   busy.map(|b| format!(" (측정 중 다른 작업도 이 machine을 최대 {b:.2} core 썼기 때문에 수치가 조금 낮게 나왔습니다.)")).unwrap_or_default());

    /// A check that waits for `launched`, with what it saw.
    WaitsForLaunched { seen: Box<Said> }
        => en: format!("not judged until `launched` passes: the processes did not form one process group (seen: {})", seen.say(lang)),
           ko: format!("`launched`가 통과할 때까지 판정하지 않습니다. 프로세스들이 하나의 process group을 이루지 못했습니다 (관찰: {})", seen.say(lang));

    // --- survive-a-crash
    NotJudgedWithoutRestart {}
        => en: format!("not judged: the interrupted run did not restart and finish (see {})", CheckId::RestartedAndFinished),
           ko: format!("판정하지 않음: 중단시킨 run이 재시작해서 끝까지 가지 못했습니다 ({} 참고)", CheckId::RestartedAndFinished);
    NeverCrashed { killed: Killed }
        => en: format!("the runner planned to stop the run where {}, but the run never got there", killed.say(lang)),
           ko: format!("grader는 epoch {}에서 rank {}의 batch {} 직전에 run을 멈출 계획이었지만, run이 그 지점까지 가지 않았습니다", killed.epoch, killed.rank, killed.batch);
    HintSameEpochs {}
        => en: "train the same epochs as the uninterrupted run, reading the data with the same DataLoader in every run",
           ko: "중단 없는 run과 같은 epoch를 학습하고, 모든 run에서 같은 DataLoader로 데이터를 읽으세요";
    NotRestarted { killed: Killed }
        => en: format!("{}, and torchrun did not start the ranks again", killed.say(lang)),
           ko: format!("{} torchrun이 rank를 다시 시작하지 않았습니다", killed.say(lang));
    HintMaxRestarts {}
        => en: "run under torchrun, which restarts every rank after a failure when --max-restarts allows it",
           ko: "torchrun 아래에서 실행하세요. --max-restarts가 허락하면 torchrun이 실패 뒤 모든 rank를 다시 시작합니다";
    RankRaised { rank: u32, kind: String, message: String, site: Option<String> }
        => en: format!("rank {rank}: {kind}: {message}{}", site.as_ref().map(|s| format!(" ({s})")).unwrap_or_default()),
           ko: format!("rank {rank}: {kind}: {message}{}", site.as_ref().map(|s| format!(" ({s})")).unwrap_or_default());
    RankUnfinished { rank: u32 }
        => en: format!("rank {rank} did not finish"),
           ko: format!("rank {rank}의 실행이 끝나지 못했습니다");
    RunTimedOut {}
        => en: "the run timed out",
           ko: "run이 시간 제한에 걸렸습니다";
    RestartFailed { killed: Killed, why: Vec<Said> }
        => en: format!("{}; torchrun restarted the ranks, but the restart failed: {}", killed.say(lang), join(why, "; ", |s| s.say(lang))),
           ko: format!("{} torchrun이 rank를 다시 시작했지만 재시작한 run이 실패했습니다: {}", killed.say(lang), join(why, "; ", |s| s.say(lang)));
    HintRestartFromTop {}
        => en: "the restart runs your script from the top: the code that loads the snapshot must work on a fresh start of every rank, and the snapshot must hold everything it reads back",
           ko: "재시작은 스크립트를 처음부터 다시 실행합니다. snapshot을 읽는 코드는 모든 rank가 새로 시작할 때 동작해야 하고, 다시 읽을 것은 모두 snapshot에 들어 있어야 합니다";
    Restarted { killed: Killed, epochs: u64 }
        => en: format!("{}; torchrun started every rank again and the run finished ({epochs} epochs in the uninterrupted run)", killed.say(lang)),
           ko: format!("{} torchrun이 모든 rank를 다시 시작해서 run이 끝났습니다 (중단 없는 run의 epoch {epochs}개)", killed.say(lang));
    NoRank0Records {}
        => en: "rank 0 left no records",
           ko: "rank 0이 남긴 기록이 없습니다";
    NoRestart {}
        => en: "there was no restart to resume from",
           ko: "이어서 학습할 재시작이 없었습니다";
    ResumedWhereLeft { epochs: Resumption }
        => en: format!("{}: the run resumed where it left off, no epoch trained twice", epochs.say(lang)),
           ko: format!("{}: 멈춘 곳에서 이어 갔고, 두 번 학습한 epoch가 없습니다", epochs.say(lang));
    ResumedFromZero { epochs: Resumption }
        => en: format!("{}: the restart began again at epoch 0, training {} finished epoch(s) twice", epochs.say(lang), epochs.done),
           ko: format!("{}: 재시작한 run이 epoch 0부터 다시 시작해서, 이미 끝난 epoch {}개를 두 번 학습했습니다", epochs.say(lang), epochs.done);
    HintResume {}
        => en: "save a snapshot (model, optimizer, scheduler, epoch) on rank 0 after every epoch, and at start-up load it when it exists and continue at its epoch + 1",
           ko: "epoch마다 끝나면 rank 0에서 snapshot(model, optimizer, scheduler, epoch)을 저장하고, 시작할 때 snapshot이 있으면 읽어서 그 epoch + 1부터 이어 가세요";
    ResumedFromOld { epochs: Resumption, twice: u64 }
        => en: format!("{}: {twice} finished epoch(s) were trained twice, so the snapshot it resumed from was older than the last finished epoch", epochs.say(lang)),
           ko: format!("{}: 끝난 epoch {twice}개를 두 번 학습했습니다. 이어 간 snapshot이 마지막으로 끝난 epoch보다 오래된 것입니다", epochs.say(lang));
    HintSnapshotEveryEpoch {}
        => en: "snapshot after every epoch, and resume at the snapshot's epoch + 1",
           ko: "epoch마다 snapshot을 저장하고, snapshot의 epoch + 1부터 이어 가세요";
    ResumedTooLate { epochs: Resumption, missed: u64 }
        => en: format!("{}: {missed} epoch(s) were never trained", epochs.say(lang)),
           ko: format!("{}: epoch {missed}개를 한 번도 학습하지 않았습니다", epochs.say(lang));
    HintResumeNotLater {}
        => en: "resume at the epoch after the last one the snapshot holds, not later; the epochs a crash interrupted must be trained again",
           ko: "snapshot에 든 마지막 epoch의 바로 다음 epoch부터 이어 가세요. crash로 중단된 epoch는 다시 학습해야 합니다";
    /// After the restart, one rank's epoch began with other indices than the uninterrupted
    /// run's same epoch (heads of the index lists, and the sampler's epoch, `?` where unknown).
    OrderDiffers { rank: u64, epoch: u64, got: String, got_epoch: String, want: String, want_epoch: String }
        => en: format!("after the restart, rank {rank}'s epoch {epoch} began with indices [{got}, …] (sampler epoch {got_epoch}); the uninterrupted run's epoch {epoch} began with [{want}, …] (sampler epoch {want_epoch})"),
           ko: format!("재시작 후 rank {rank}의 epoch {epoch}는 index [{got}, …]로 시작했습니다 (sampler epoch {got_epoch}). 중단 없는 run의 epoch {epoch}는 [{want}, …]로 시작했습니다 (sampler epoch {want_epoch})");
    HintSetEpochResumed {}
        => en: "call sampler.set_epoch(epoch) with the real epoch number, counted from the snapshot's epoch + 1, so a resumed epoch shuffles as it would have",
           ko: "snapshot의 epoch + 1부터 센 실제 epoch 번호로 sampler.set_epoch(epoch)를 부르세요. 그래야 이어 간 epoch가 원래대로 섞입니다";
    NoEpochAfterRestart {}
        => en: "no epoch was trained after the restart",
           ko: "재시작 후 학습한 epoch가 없습니다";
    OrderResumed { epochs: u64 }
        => en: format!("the {} epoch(s) trained after the restart read exactly the indices of the same epochs in the uninterrupted run, on every rank", count(*epochs)),
           ko: format!("재시작 후 학습한 epoch {}개가 모든 rank에서 중단 없는 run의 같은 epoch와 똑같은 index를 읽었습니다", count(*epochs));
    NoSnapshot {}
        => en: "no rank called torch.save: without a snapshot a restart has nothing to resume from",
           ko: "torch.save를 부른 rank가 없습니다. snapshot이 없으면 재시작해도 이어 갈 곳이 없습니다";
    HintSnapshotRank0 {}
        => en: "after every epoch, save a snapshot with torch.save on rank 0 only, followed by a barrier that every rank reaches",
           ko: "epoch마다 끝나면 rank 0에서만 torch.save로 snapshot을 저장하고, 그 뒤에 모든 rank가 지나는 barrier를 두세요";
    SnapshotByOthers { writers: Vec<(u32, String)> }
        => en: format!("{} (and rank 0 should be the only writer)", join(writers, "; ", |(r, p)| format!("rank {r} wrote {p}"))),
           ko: format!("{} (쓰는 것은 rank 0 하나여야 합니다)", join(writers, "; ", |(r, p)| format!("rank {r}: {p}에 씀")));
    HintGuardSnapshot {}
        => en: "every rank holds the same model, so one copy is enough: guard torch.save with `if dist.get_rank() == 0`, and keep the barrier after it outside the if",
           ko: "모든 rank가 같은 모델을 가지니 한 부만 있으면 됩니다. torch.save를 `if dist.get_rank() == 0`으로 감싸고, 그 뒤의 barrier는 if 밖에 두세요";
    SnapshotByRank0 { saves: u64, paths: String }
        => en: format!("only rank 0 called torch.save ({} time(s), to {paths})", count(*saves)),
           ko: format!("rank 0만 torch.save를 불렀습니다 ({}번, {paths})", count(*saves));
    FinalUnread {}
        => en: "the final parameters of both runs could not be read",
           ko: "두 run의 최종 파라미터를 읽을 수 없었습니다";
    FinalIdentical {}
        => en: "the final parameters after the crash and restart are bit for bit those of the uninterrupted run",
           ko: "crash와 재시작 뒤의 최종 파라미터가 중단 없는 run의 것과 비트 하나까지 같습니다";
    FinalWithin { tolerance: f64, by: f64, name: String }
        => en: format!("the final parameters match the uninterrupted run's within {tolerance:e} (largest difference {by:.2e}, in {name})"),
           ko: format!("최종 파라미터가 중단 없는 run과 {tolerance:e} 안에서 같습니다 (가장 큰 차이 {by:.2e}, {name})");
    FinalDiffers { tolerance: f64, by: f64, name: String }
        => en: format!("the final parameters differ from the uninterrupted run's: by up to {by:.3e} in {name} (tolerance {tolerance:e})"),
           ko: format!("최종 파라미터가 중단 없는 run과 다릅니다: {name}에서 최대 {by:.3e} (허용 오차 {tolerance:e})");
    /// As [`Said::FinalDiffers`], where the difference is no number.
    FinalNotFinite { name: String }
        => en: format!("the final parameters differ from the uninterrupted run's in {name}: NaN or infinite values on one side only, or another shape"),
           ko: format!("최종 파라미터가 중단 없는 run과 {name}에서 다릅니다. 한쪽에만 NaN이나 무한대 값이 있거나 shape가 다릅니다");
    HintSnapshotEverything {}
        => en: "the snapshot must hold everything training depends on: the model, the optimizer's state (momentum), the learning-rate scheduler, and the epoch; restore all of them before training on",
           ko: "snapshot에는 학습이 기대는 모든 것, 곧 model, optimizer의 state(momentum), learning-rate scheduler, epoch가 있어야 합니다. 학습을 이어 가기 전에 전부 복원하세요";
    TooFewEpochs {}
        => en: "the script trained fewer than 2 epochs, so there is no moment after a snapshot to crash at: train at least 2",
           ko: "스크립트가 epoch를 2개보다 적게 학습해서, snapshot 뒤에 crash를 일으킬 시점이 없습니다. 적어도 2개를 학습하세요";

    // --- the verdict as a whole
    NcclWithoutGpu { backend: String, error: String }
        => en: format!("the script asks for the {backend} backend, but this runner has no GPU ({error}); choose it with \"nccl\" if torch.cuda.is_available() else \"gloo\""),
           ko: format!("스크립트가 {backend} backend를 요청하지만 이 runner에는 GPU가 없습니다 ({error}). \"nccl\" if torch.cuda.is_available() else \"gloo\"로 고르세요");
    NeverInitialised { nproc: u32 }
        => en: format!("the script never calls dist.init_process_group(), so torchrun ran {nproc} copies of it that each trained alone on the whole dataset: there is no DDP to grade yet. Start by initialising a process group with the rank and world size torchrun provides"),
           ko: format!("스크립트가 dist.init_process_group()을 부르지 않아서, torchrun이 실행한 사본 {nproc}개가 각자 dataset 전체로 따로 학습했습니다. 아직 채점할 DDP가 없습니다. torchrun이 주는 rank와 world size로 process group을 만드는 것부터 시작하세요");
    NothingStarted {}
        => en: "the script finished without starting a process group or a DataLoader: there was nothing to grade",
           ko: "스크립트가 process group도 DataLoader도 시작하지 않고 끝나서 채점할 것이 없었습니다";
    NoRankGotGoing { said: String }
        => en: format!("no rank got going: {said}"),
           ko: format!("시작한 rank가 없습니다: {said}");
    OutOfTime {}
        => en: "the run did not finish within its time limit",
           ko: "run이 시간 제한 안에 끝나지 않았습니다";
    FailsUnharmed { what: Box<Said> }
        => en: format!("the script fails even when nothing crashes: {}", what.say(lang)),
           ko: format!("아무것도 중단시키지 않았는데도 스크립트가 실패합니다: {}", what.say(lang));
    /// The summary of an `error` verdict; `at`: `file:line` or `file`.
    NothingGraded { at: Option<String>, what: Box<Said> }
        => en: format!("nothing could be graded: {}{}", at.as_ref().map(|a| format!("{a}: ")).unwrap_or_default(), what.say(lang)),
           ko: format!("채점할 수 없었습니다: {}{}", at.as_ref().map(|a| format!("{a}: ")).unwrap_or_default(), what.say(lang));
    StoppedAtLimit { wall_s: f64 }
        => en: format!("the run was stopped after {wall_s:.0} s (the wall-clock limit)"),
           ko: format!("run을 {wall_s:.0} s 뒤에 멈췄습니다 (실행 시간 제한)");
    AllPassed { checks: u64 }
        => en: format!("all {checks} checks passed"),
           ko: format!("검사 {checks}개를 모두 통과했습니다");
    SomeFailed { checks: u64, failed: Vec<CheckId>, skipped: Vec<CheckId> }
        => en: {
               let mut parts = Vec::new();
               if !failed.is_empty() {
                   parts.push(format!("{} of {checks} checks failed: {}", failed.len(), join(failed, ", ", |c| c.title_in(Lang::En).into())));
               }
               if !skipped.is_empty() {
                   parts.push(format!("{} not judged: {}", skipped.len(), join(skipped, ", ", |c| c.title_in(Lang::En).into())));
               }
               parts.join("; ")
           },
           ko: {
               let mut parts = Vec::new();
               if !failed.is_empty() {
                   parts.push(format!("검사 {checks}개 중 {}개 실패: {}", failed.len(), join(failed, ", ", |c| c.title_in(Lang::Ko).into())));
               }
               if !skipped.is_empty() {
                   parts.push(format!("{}개 판정 보류: {}", skipped.len(), join(skipped, ", ", |c| c.title_in(Lang::Ko).into())));
               }
               parts.join("; ")
           };
}

/// Whether a checkpoint equals the final parameters, as the end of a sentence in `lang`.
fn final_words(equals: Option<bool>, lang: Lang) -> &'static str {
    match equals {
        Some(true) => lockstep_lang::words! {
            En: "; it equals the final parameters",
            Ko: "; 최종 파라미터와 같음",
        }
        .get(lang),
        Some(false) => lockstep_lang::words! {
            En: "; note: it differs from the final parameters",
            Ko: "; 참고: 최종 파라미터와 다름",
        }
        .get(lang),
        None => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_is_its_id_and_numbers_and_reads_in_both_languages() {
        let said = Said::NoInit { started: 2 };
        let json = serde_json::to_value(&said).unwrap();
        assert_eq!(json, serde_json::json!({"sentence": "no_init", "started": 2}));
        assert_eq!(serde_json::from_value::<Said>(json).unwrap(), said);
        assert_eq!(said.say(Lang::En), "no rank called init_process_group (of 2 started)");
        assert_eq!(
            said.say(Lang::Ko),
            "init_process_group을 부른 rank가 없습니다 (시작한 프로세스 2개)"
        );
    }

    #[test]
    fn every_sentence_has_its_own_korean() {
        let hangul = |s: &str| s.chars().any(|c| ('가'..='힣').contains(&c));
        for said in Said::every() {
            let (en, ko) = (said.say(Lang::En), said.say(Lang::Ko));
            // Only what Python or the script said is the same in both.
            if matches!(said, Said::Text { .. } | Said::RankRaised { .. }) {
                assert_eq!(en, ko);
                continue;
            }
            // Never said with nothing failed (the outcome's tests word it with checks).
            if matches!(said, Said::SomeFailed { .. }) {
                continue;
            }
            assert!(hangul(&ko) && !hangul(&en) && en != ko, "{said:?}: {en} | {ko}");
            let back: Said = serde_json::from_value(serde_json::to_value(&said).unwrap()).unwrap();
            assert_eq!(back, said);
        }
    }

    /// A language with no sentences of its own (Japanese, which the tests serve) reads every
    /// one in English, where the grader writes them first: the one fallback rule.
    #[test]
    fn a_language_without_sentences_reads_them_in_english() {
        for said in Said::every() {
            assert_eq!(said.say(Lang::Ja), said.say(Lang::En), "{said:?}");
        }
    }

    #[test]
    fn nested_sentences_are_worded_in_the_same_language() {
        let said = Said::WaitsForLaunched { seen: Box::new(Said::NoCheckpoint {}) };
        assert!(said.say(Lang::Ko).contains("torch.save로 checkpoint를 저장한 rank가 없습니다"));
        assert!(said.say(Lang::En).ends_with("(seen: no rank saved a checkpoint with torch.save)"));
        let back: Said = serde_json::from_value(serde_json::to_value(&said).unwrap()).unwrap();
        assert_eq!(back, said);
    }

    #[test]
    fn a_check_worded_for_a_page_keeps_only_its_text() {
        use crate::{Check, CheckId, CheckStatus, CheckWords, Section};
        let message = Said::NoInit { started: 2 };
        let check = Check {
            id: CheckId::Launched,
            status: CheckStatus::Fail,
            required: true,
            message: message.say(Lang::En),
            hint: Some(Said::HintInit {}.say(Lang::En)),
            section: Section::new("a", "b"),
            words: Some(Box::new(CheckWords { message, hint: Some(Said::HintInit {}) })),
        };
        let ko = check.clone().in_language(Lang::Ko);
        assert_eq!(ko.words, None);
        assert_eq!(ko.message, check.message_in(Lang::Ko));
        assert_eq!(ko.hint, check.hint_in(Lang::Ko));
        assert_eq!(ko.message_in(Lang::En), ko.message, "worded once, for its page");
        assert_eq!(check.clone().in_language(Lang::En), Check { words: None, ..check });
    }

    #[test]
    fn lists_keep_their_order_and_ranks() {
        let said = Said::Shards {
            reads: vec![32, 32],
            duplicates: 0,
            unique: 64,
            len: 64,
            padding: Some(0),
        };
        assert_eq!(
            said.say(Lang::En),
            "first epoch: rank 0 read 32, rank 1 read 32; 0 read by more than one rank; together 64 of 64 samples (padding allows 0)"
        );
        assert_eq!(
            said.say(Lang::Ko),
            "첫 epoch: rank 0 32개, rank 1 32개; 두 rank 이상이 읽은 샘플 0개; 합쳐서 64개 중 64개 (padding으로 0개까지 허용)"
        );
    }
}
