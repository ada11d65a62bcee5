//! The simulations' words: captions, controls and labels, in each language.
//!
//! Grouped as the simulations are: the controls every one shares at the top, then one struct
//! per simulation. A word with numbers in it is a function; the numbers it is given are either
//! plain (formatted here, the same way in every language) or already formatted by the page
//! (durations, sizes: `lockstep-units`), passed as `&str`.

use lockstep_units::{count, plural};

/// What a simulation's player steps through.
pub struct Unit {
    /// The unit's name on the Next button: "Next step", "다음 step".
    pub name: &'static str,
    /// The position line, (step, last): "Step 2 of 4".
    pub position: fn(usize, usize) -> String,
}

/// The units the simulations step through.
pub struct Units {
    pub step: Unit,
    pub epoch: Unit,
    pub frame: Unit,
    pub phase: Unit,
    pub micro_batch: Unit,
    pub stage: Unit,
}

/// Every word the simulations show.
pub struct SimWords {
    pub play: &'static str,
    pub pause: &'static str,
    pub reset: &'static str,
    /// The controls' group label, from the simulation's label: "All-reduce controls".
    pub controls: fn(&str) -> String,
    /// The step button, from a unit's name: "Next step".
    pub next: fn(&str) -> String,
    pub units: Units,
    /// A rank's name in tables, lists and legends: "rank 3".
    pub rank: fn(usize) -> String,
    /// The "Start" position of a player, before its first step.
    pub start: &'static str,
    /// Number fields' labels (the trailing space separates them from the field).
    pub ranks: &'static str,
    pub gpus: &'static str,
    pub link: &'static str,
    /// GPU 0 under DataParallel.
    pub master_gpu: &'static str,
    pub ring: RingWords,
    pub sampler: SamplerWords,
    pub timeline: TimelineWords,
    pub dp_vs_ddp: DpVsDdpWords,
    pub scatter_gather: ScatterGatherWords,
    pub accumulation: AccumulationWords,
    pub memory: MemoryWords,
    pub run: RunWords,
}

/// `ring-allreduce`.
pub struct RingWords {
    pub title: &'static str,
    pub values_per_rank: &'static str,
    pub algorithm: &'static str,
    /// The player's label.
    pub label: &'static str,
    /// The explanation before the first step, from the number of ranks.
    pub explain_start: fn(usize) -> String,
    pub explain_reduce_scatter: &'static str,
    pub explain_all_gather: &'static str,
    pub explain_reduce: &'static str,
    pub explain_broadcast: &'static str,
    pub cost_title: &'static str,
    pub tensor_size: &'static str,
    /// The ring's aria-label, (ranks, sends this step).
    pub diagram: fn(usize, usize) -> String,
    /// Tooltips of a value a step added to, and of one it overwrote.
    pub added: &'static str,
    pub copied: &'static str,
    /// The values table's caption around its `+` and `=` marks.
    pub caption_before: &'static str,
    pub caption_added: &'static str,
    pub caption_copied: &'static str,
    pub chunk_column: &'static str,
    /// What a send carries: "chunk c2".
    pub chunk: fn(usize) -> String,
    pub whole_tensor: &'static str,
    /// One send, (from, to, what, values).
    pub send: fn(usize, usize, &str, &str) -> String,
    pub more_sends: fn(usize) -> String,
    pub holds_sum: &'static str,
    /// Before the mean, from the number of ranks.
    pub ddp_gradient: fn(usize) -> String,
    pub agree: &'static str,
    pub disagree: &'static str,
    /// The cost table's caption, (size, ranks, link, α, β).
    pub cost_caption: fn(&str, usize, &str, &str, &str) -> String,
    pub col_algorithm: &'static str,
    pub col_steps: &'static str,
    pub col_time: &'static str,
    pub col_algbw: &'static str,
    pub col_busbw: &'static str,
}

/// `sampler`.
pub struct SamplerWords {
    pub title: &'static str,
    pub dataset_size: &'static str,
    pub seed: &'static str,
    pub shuffle: &'static str,
    pub drop_last: &'static str,
    pub set_epoch: &'static str,
    pub label: &'static str,
    pub no_shuffle: &'static str,
    /// (loop epoch, seed + epoch).
    pub with_set_epoch: fn(u64, i128) -> String,
    /// (loop epoch).
    pub without_set_epoch: fn(u64) -> String,
    /// A padding index's tooltip, and its mark's aria-label.
    pub padding_title: &'static str,
    pub padding: &'static str,
    pub dropped: &'static str,
    pub dataset_title: &'static str,
    /// (dataset size, ranks, indices per rank, padding repeats, dropped).
    pub summary: fn(usize, usize, usize, usize, usize) -> String,
}

/// What the two timeline simulations (`dp-vs-ddp`, `scatter-gather`) share.
pub struct TimelineWords {
    pub batch: &'static str,
    pub hardware: &'static str,
    /// The setup, (widths "784→4096→10", millions of parameters, batch, device, link).
    pub describe: fn(&str, f64, usize, &str, &str) -> String,
}

/// `dp-vs-ddp`.
pub struct DpVsDdpWords {
    pub title: &'static str,
    pub label: &'static str,
    pub start: &'static str,
    pub dp: &'static str,
    pub ddp: &'static str,
    /// After the speedup, from the iteration's duration.
    pub speedup: fn(&str) -> String,
    pub dp_title: &'static str,
    pub ddp_title: &'static str,
    pub curve_title: &'static str,
    pub legend_compute: &'static str,
    pub legend_comm: &'static str,
    pub legend_host: &'static str,
    /// The timeline's row for the host process.
    pub python: &'static str,
    /// The timeline's aria-label, (devices, iteration's duration).
    pub timeline: fn(usize, &str) -> String,
    pub col_device: &'static str,
    pub col_samples: &'static str,
    pub col_busy: &'static str,
    pub col_load: &'static str,
    pub col_memory: &'static str,
    pub chart: &'static str,
    pub axis_gpus: &'static str,
    /// The y axis, from the top of the scale.
    pub axis_speedup: fn(f64) -> String,
    pub chart_key: &'static str,
}

/// DataParallel's phases, one iteration in order.
pub struct DpPhases {
    pub scatter: &'static str,
    pub replicate: &'static str,
    pub forward: &'static str,
    pub gather: &'static str,
    pub loss: &'static str,
    pub scatter_grad_output: &'static str,
    pub backward: &'static str,
    pub reduce_gradients: &'static str,
    pub optimizer_step: &'static str,
}

/// `scatter-gather`.
pub struct ScatterGatherWords {
    pub title: &'static str,
    /// (batch, chunk sizes "3 + 3 + 3 + 1").
    pub chunks: fn(usize, &str) -> String,
    /// (GPUs that get a chunk, GPUs).
    pub only_some: fn(usize, usize) -> String,
    pub label: &'static str,
    pub start: &'static str,
    pub press_next: &'static str,
    pub phases: DpPhases,
    /// A device's line, (samples, memory).
    pub device: fn(usize, &str) -> String,
    pub idle: &'static str,
    pub chart_title: &'static str,
    pub col_gpus: &'static str,
    pub col_master_busy: &'static str,
    pub col_other_busy: &'static str,
    pub col_extra: &'static str,
    pub col_master_memory: &'static str,
    pub col_other_memory: &'static str,
}

/// `accumulation`.
pub struct AccumulationWords {
    /// Before the first micro-batch, (micro-batches).
    pub explain_start: fn(usize) -> String,
    /// After micro-batch `done` of `k` inside `no_sync`, (done, k, buckets).
    pub explain_inside: fn(usize, usize, usize) -> String,
    /// After the last, (k, buckets).
    pub explain_last: fn(usize, usize) -> String,
    pub title: &'static str,
    pub micro_batches: &'static str,
    pub label: &'static str,
    /// A micro-batch that syncs, from the number of buckets.
    pub syncs: fn(usize) -> String,
    pub no_sync: &'static str,
    pub with_no_sync: &'static str,
    pub without_no_sync: &'static str,
    /// (without no_sync, with it).
    pub so_far: fn(usize, usize) -> String,
    pub per_step: &'static str,
    pub bytes_sent: &'static str,
    /// From the link's name.
    pub comm_time: fn(&str) -> String,
    /// (parameters, already formatted; buckets; micro-batch; micro-batches; GPUs; global
    /// batch; all-reduces saved; all-reduces without no_sync).
    pub summary: fn(&str, usize, usize, usize, usize, u64, u64, u64) -> String,
}

/// `memory`.
pub struct MemoryWords {
    pub explain_ddp: &'static str,
    /// From the number of GPUs.
    pub explain_zero1: fn(usize) -> String,
    pub explain_zero2: fn(usize) -> String,
    pub explain_zero3: &'static str,
    pub title: &'static str,
    pub parameters_b: &'static str,
    pub activations_gb: &'static str,
    pub gpu_gb: &'static str,
    pub optimizer: &'static str,
    pub precision: &'static str,
    pub label: &'static str,
    /// The bar parts' tooltips.
    pub part_parameters: &'static str,
    pub part_gradients: &'static str,
    pub part_optimizer: &'static str,
    pub part_activations: &'static str,
    /// A bar's total, (size, whether it fits).
    pub total: fn(&str, bool) -> String,
    /// The legend, between its swatches, before the GPU's size.
    pub legend_parameters: &'static str,
    pub legend_gradients: &'static str,
    pub legend_optimizer: &'static str,
    pub legend_activations: &'static str,
    /// The vertical line across the bars: one GPU's memory, of `gb` GB.
    pub legend_gpu: fn(gb: &str) -> String,
    /// (billions of parameters, GPUs, optimizer, precision, bytes per parameter of
    /// parameters, of gradients, of optimizer state, GB of activations).
    pub summary: fn(f64, usize, &str, &str, f64, f64, f64, f64) -> String,
}

/// The learner's run beside the cost model, on a submission's page.
pub struct RunWords {
    /// The model could not predict, from why.
    pub no_prediction: fn(&str) -> String,
    pub no_ddp_model: &'static str,
    pub not_mlp: &'static str,
    pub no_batch_size: &'static str,
    /// From the engine's error.
    pub bad_widths: fn(&str) -> String,
    pub too_few_epochs: &'static str,
    /// The run was slower, (ratio, the model's step).
    pub slower: fn(f64, &str) -> String,
    /// The run was faster, (percent, the model's step).
    pub faster: fn(f64, &str) -> String,
    pub why_slower: &'static str,
    pub why_faster: &'static str,
    pub why_close: &'static str,
    /// (measured step, slower or faster, why).
    pub gap: fn(&str, &str, &str) -> String,
    /// The model's line, from its preset.
    pub model_series: fn(&str) -> String,
    pub your_step: &'static str,
    pub your_allreduce: &'static str,
    pub model_step: &'static str,
    pub model_allreduces: &'static str,
    /// (preset, widths, global batch, processes, steps an epoch).
    pub setup: fn(&str, &str, u64, u32, u64) -> String,
    pub title: &'static str,
    pub epochs_caption: &'static str,
    pub epochs_chart: &'static str,
    pub loss_caption: &'static str,
    pub loss_chart: &'static str,
    pub bars_caption: &'static str,
    pub bars_chart: &'static str,
    pub numbers: &'static str,
    pub col_rank: &'static str,
    pub col_epoch: &'static str,
    pub col_time: &'static str,
    pub col_loss: &'static str,
}

pub static EN: SimWords = SimWords {
    play: "▶ Play",
    pause: "❚❚ Pause",
    reset: "↺ Reset",
    controls: |label| format!("{label} controls"),
    next: |unit| format!("Next {unit}"),
    units: Units {
        step: Unit { name: "step", position: |s, last| format!("Step {s} of {last}") },
        epoch: Unit { name: "epoch", position: |s, last| format!("Epoch {s} of {last}") },
        frame: Unit { name: "frame", position: |s, last| format!("Frame {s} of {last}") },
        phase: Unit { name: "phase", position: |s, last| format!("Phase {s} of {last}") },
        micro_batch: Unit {
            name: "micro-batch",
            position: |s, last| format!("Micro-batch {s} of {last}"),
        },
        stage: Unit { name: "stage", position: |s, last| format!("Stage {s} of {last}") },
    },
    rank: |r| format!("rank {r}"),
    start: "Start",
    ranks: "Ranks ",
    gpus: "GPUs ",
    link: "Link ",
    master_gpu: "GPU 0 ★ master",
    ring: RingWords {
        title: "Simulation: all-reduce, step by step",
        values_per_rank: "Values per rank ",
        algorithm: "Algorithm ",
        label: "All-reduce",
        explain_start: |n| format!("Start: each of the {n} ranks holds its own gradient."),
        explain_reduce_scatter: "Reduce-scatter: every rank sends one chunk to its right-hand \
                                 neighbour, which adds it to its own copy.",
        explain_all_gather: "All-gather: every rank forwards a finished chunk, which the \
                             neighbour stores in place of its own.",
        explain_reduce: "Reduce: whole tensors travel towards rank 0, which adds them up.",
        explain_broadcast: "Broadcast: the sum travels back out from rank 0.",
        cost_title: "How long would it take?",
        tensor_size: "Tensor size ",
        diagram: |n, sends| {
            format!(
                "{n} ranks in a ring; this step, {}, drawn as arrows",
                plural(sends as u64, "send", "sends")
            )
        },
        added: "just added to",
        copied: "just overwritten",
        caption_before: "Each rank's values. ",
        caption_added: " marks a value a received chunk was just added to, ",
        caption_copied: " one just overwritten.",
        chunk_column: "chunk",
        chunk: |c| format!("chunk c{c}"),
        whole_tensor: "the whole tensor",
        send: |from, to, what, values| format!("rank {from} → rank {to}: {what} [{values}]"),
        more_sends: |rest| format!("…and {rest} more sends in this step."),
        holds_sum: "Every rank now holds the sum: ",
        ddp_gradient: |n| format!("DDP's gradient, each input × 1/{n} then summed: "),
        agree: "✓ Equal on every rank, and equal to the element-wise sum.",
        disagree: "✗ The ranks disagree.",
        cost_caption: |size, ranks, link, alpha, beta| {
            format!(
                "{size} over {ranks} ranks on {link} (α = {alpha}, β = {beta}): time = steps × \
                 (α + bytes per step / β)"
            )
        },
        col_algorithm: "algorithm",
        col_steps: "steps",
        col_time: "time",
        col_algbw: "algbw",
        col_busbw: "busbw",
    },
    sampler: SamplerWords {
        title: "Simulation: DistributedSampler",
        dataset_size: "Dataset size ",
        seed: "Seed ",
        shuffle: "shuffle",
        drop_last: "drop_last",
        set_epoch: "call set_epoch(epoch)",
        label: "Sampler",
        no_shuffle: "shuffle=False: every epoch walks the dataset in order.",
        with_set_epoch: |epoch, seed| {
            format!(
                "Epoch {epoch}: set_epoch({epoch}) seeds the shuffle with seed + epoch = {seed}."
            )
        },
        without_set_epoch: |epoch| {
            format!(
                "Epoch {epoch}, but set_epoch is never called: the sampler stays at epoch 0 and \
                 repeats the same order every epoch."
            )
        },
        padding_title: "padding: a repeat",
        padding: "padding",
        dropped: "dropped",
        dataset_title: "The dataset, by the rank that reads each index",
        summary: |len, ranks, each, padded, dropped| {
            format!(
                "{len} indices over {ranks} ranks: {each} each{}{}.",
                match padded {
                    0 => String::new(),
                    p => format!(", {p} of them padding repeats (marked *)"),
                },
                match dropped {
                    0 => String::new(),
                    d => format!(", {d} dropped by drop_last"),
                }
            )
        },
    },
    timeline: TimelineWords {
        batch: "Batch size ",
        hardware: "Hardware ",
        describe: |layers, params_m, batch, device, link| {
            format!(
                "An MLP {layers} ({params_m:.1} M parameters), batch {batch}, on {device} joined \
                 by {link}. Times are a cost model's estimates, not a run's; chunk sizes and \
                 DDP's buckets are PyTorch's."
            )
        },
    },
    dp_vs_ddp: DpVsDdpWords {
        title: "Simulation: DataParallel vs DistributedDataParallel",
        label: "DP vs DDP",
        start: "Time 0: press Play to run one iteration",
        dp: "DataParallel: ",
        ddp: "DDP: ",
        speedup: |time| format!(" speedup, {time} per iteration"),
        dp_title: "DataParallel: one process, one thread per GPU",
        ddp_title: "DDP: one process per GPU",
        curve_title: "Speedup over one GPU, by number of GPUs",
        legend_compute: "compute (forward, loss, backward, optimizer step)",
        legend_comm: "copies and collectives",
        legend_host: "Python on the host (DP: holding the GIL)",
        python: "Python",
        timeline: |devices, time| {
            format!("Timeline of {devices} devices; one iteration takes {time}")
        },
        col_device: "device",
        col_samples: "samples",
        col_busy: "busy",
        col_load: "load",
        col_memory: "memory",
        chart: "Speedup of DataParallel and DDP against the number of GPUs",
        axis_gpus: "GPUs",
        axis_speedup: |max| format!("speedup (up to {max:.0}×)"),
        chart_key: "Dashed: DataParallel. Solid: DDP. Dotted: perfect scaling.",
    },
    scatter_gather: ScatterGatherWords {
        title: "Simulation: scatter, gather and the master GPU",
        chunks: |batch, sizes| format!("torch.chunk splits the batch of {batch} into {sizes}."),
        only_some: |used, gpus| format!(" Only {used} of {gpus} GPUs get a chunk."),
        label: "Scatter and gather",
        start: "Before the iteration: the model lives on GPU 0",
        press_next: "Press Next phase to walk through one DataParallel iteration.",
        phases: DpPhases {
            scatter: "Scatter: the batch is cut with torch.chunk and each chunk copied from GPU 0 \
                      to its GPU.",
            replicate: "Replicate: GPU 0's parameters are copied to every other GPU, as they are \
                        every iteration.",
            forward: "Forward: one Python thread per GPU runs its replica; the threads take turns \
                      holding the GIL.",
            gather: "Gather: every GPU's outputs are copied to GPU 0.",
            loss: "Loss: GPU 0 alone computes the loss over the whole batch.",
            scatter_grad_output: "Backward starts: the gradient of each output chunk goes back \
                                  to the GPU that produced it.",
            backward: "Backward: each replica computes its parameters' gradients.",
            reduce_gradients: "Reduce: every replica's gradients are summed onto GPU 0.",
            optimizer_step: "Optimizer step: GPU 0 alone updates the weights; the other GPUs \
                             hold nothing until the next replicate.",
        },
        device: |samples, memory| {
            format!("{} · {memory} memory", plural(samples as u64, "sample", "samples"))
        },
        idle: "idle in this phase",
        chart_title: "GPU 0 against the other GPUs, by number of GPUs",
        col_gpus: "GPUs",
        col_master_busy: "GPU 0 busy",
        col_other_busy: "busiest other",
        col_extra: "GPU 0 extra",
        col_master_memory: "GPU 0 memory",
        col_other_memory: "other memory",
    },
    accumulation: AccumulationWords {
        explain_start: |k| {
            format!(
                "One optimizer step of {k} micro-batches. Step through them: each runs forward \
                 and backward on every GPU."
            )
        },
        explain_inside: |d, k, buckets| {
            format!(
                "Micro-batch {d} of {k}. Without no_sync its backward all-reduces {}; inside \
                 no_sync it all-reduces nothing and the gradients add up in .grad on each GPU \
                 alone.",
                plural(buckets as u64, "bucket", "buckets")
            )
        },
        explain_last: |k, buckets| {
            format!(
                "Micro-batch {k} of {k}, outside no_sync: its backward all-reduces the {} once, \
                 averaging the gradients accumulated over all {k} micro-batches. Then \
                 optimizer.step() and zero_grad().",
                plural(buckets as u64, "bucket", "buckets")
            )
        },
        title: "Simulation: gradient accumulation and no_sync",
        micro_batches: "Micro-batches per step ",
        label: "Accumulation",
        syncs: |buckets| format!("{buckets}× all-reduce"),
        no_sync: "no_sync",
        with_no_sync: "with no_sync",
        without_no_sync: "without no_sync",
        so_far: |without, with| {
            format!("All-reduces so far: {without} without no_sync, {with} with it.")
        },
        per_step: "all-reduces per optimizer step",
        bytes_sent: "bytes each GPU sends (ring)",
        comm_time: |link| format!("communication time ({link}, α–β)"),
        summary: |parameters, buckets, micro_batch, k, gpus, global, saved, total| {
            format!(
                "A model of {parameters} parameters in {}; global batch = {micro_batch} per \
                 micro-batch × {k} micro-batches × {gpus} GPUs = {global} samples per optimizer \
                 step. no_sync saves {saved} of {total} all-reduces; the gradient is the same.",
                plural(buckets as u64, "bucket", "buckets")
            )
        },
    },
    memory: MemoryWords {
        explain_ddp: "DDP: every GPU holds the whole model, all of its gradients and all of the \
                      optimizer's state.",
        explain_zero1: |gpus| {
            format!(
                "ZeRO-1: the optimizer state is split into {gpus} shards; each GPU updates only \
                 its share of the parameters, then they are all-gathered."
            )
        },
        explain_zero2: |gpus| {
            format!(
                "ZeRO-2: the gradients are split too: a reduce-scatter leaves each GPU only the \
                 averaged gradients of its 1/{gpus} share."
            )
        },
        explain_zero3: "ZeRO-3, FSDP's full sharding: the parameters are split too; each layer's \
                        are all-gathered just before it runs and freed after. Only activations \
                        are left whole.",
        title: "Simulation: memory per GPU",
        parameters_b: "Parameters (billions) ",
        activations_gb: "Activations per GPU (GB) ",
        gpu_gb: "GPU memory (GB) ",
        optimizer: "Optimizer ",
        precision: "Precision ",
        label: "Memory",
        part_parameters: "parameters",
        part_gradients: "gradients",
        part_optimizer: "optimizer",
        part_activations: "activations",
        total: |size, fits| format!("{size} {}", if fits { "fits" } else { "does not fit" }),
        legend_parameters: "parameters",
        legend_gradients: "gradients",
        legend_optimizer: "optimizer state",
        legend_activations: "activations",
        legend_gpu: |gb| format!("one GPU's memory, {gb} GB"),
        summary: |params_b, gpus, optimizer, precision, pb, gb, k, activations_gb| {
            format!(
                "{params_b} billion parameters on {gpus} GPUs, {optimizer} with {precision} \
                 precision: {pb} + {gb} + {k} bytes per parameter (parameters, gradients, \
                 optimizer state K = {k}), plus {activations_gb} GB of activations per GPU, which \
                 no stage shards."
            )
        },
    },
    run: RunWords {
        no_prediction: |why| format!("No prediction: {why}."),
        no_ddp_model: "the script wrapped no model in DistributedDataParallel",
        not_mlp: "the cost model times MLPs (a chain of nn.Linear layers), and this model is not \
                  one",
        no_batch_size: "the training DataLoader has no fixed batch_size",
        bad_widths: |e| format!("the model's widths do not make an MLP: {e}"),
        too_few_epochs: "The run completed too few epochs to time a step.",
        slower: |ratio, model| format!("{ratio:.1}× the model's {model}"),
        faster: |percent, model| format!("{percent:.0}% of the model's {model}"),
        why_slower: " The model counts the layers' arithmetic, the all-reduces and the \
                     optimizer; the rest of a real step (loading and collating the batch in \
                     Python, the loss, the interpreter between layers beyond what the model \
                     allows for it, other work on the machine) is the difference.",
        why_faster: " The machine did better than the model assumes: its cores or link are \
                     faster than those of the machine the model's figures come from.",
        why_close: " Close: the step is mostly the work the model counts.",
        gap: |measured, size, why| {
            format!("A step of your run took {measured} on each rank: {size}.{why}")
        },
        model_series: |preset| format!("the model ({preset})"),
        your_step: "your step",
        your_allreduce: "your all-reduce",
        model_step: "the model's step",
        model_allreduces: "the model's all-reduces",
        setup: |preset, widths, batch, world, steps| {
            format!(
                "The model: a cost model of DDP on {preset}, an MLP of widths {widths}, a global \
                 batch of {batch} on {world} processes, {steps} steps an epoch."
            )
        },
        title: "Your run beside the model",
        epochs_caption: "Seconds per epoch (1, 2, …), each rank; the dashed line is the model's \
                         epoch",
        epochs_chart: "Seconds per epoch for each rank, and the model's prediction",
        loss_caption: "Mean loss per epoch, each rank (DDP keeps the replicas equal, so the \
                       ranks' losses differ only by their data)",
        loss_chart: "Mean loss per epoch for each rank",
        bars_caption: "One step against its all-reduce: yours (the all-reduce timed once when \
                       DDP started) and the model's (its buckets' all-reduces, which overlap \
                       backward)",
        bars_chart: "A step and its all-reduce, measured and predicted",
        numbers: "The numbers",
        col_rank: "rank",
        col_epoch: "epoch",
        col_time: "time",
        col_loss: "mean loss",
    },
};

pub static KO: SimWords = SimWords {
    play: "▶ 재생",
    pause: "❚❚ 일시정지",
    reset: "↺ 처음으로",
    controls: |label| format!("{label} 시뮬레이션 조작"),
    next: |unit| format!("다음 {unit}"),
    units: Units {
        step: Unit { name: "step", position: |s, last| format!("step {s} / {last}") },
        epoch: Unit { name: "epoch", position: |s, last| format!("epoch {s} / {last}") },
        frame: Unit { name: "프레임", position: |s, last| format!("프레임 {s} / {last}") },
        phase: Unit {
            name: "단계", position: |s, last| format!("{s}단계 / 전체 {last}단계")
        },
        micro_batch: Unit {
            name: "micro-batch",
            position: |s, last| format!("micro-batch {s} / {last}"),
        },
        stage: Unit { name: "stage", position: |s, last| format!("stage {s} / {last}") },
    },
    rank: |r| format!("rank {r}"),
    start: "시작",
    ranks: "rank 수 ",
    gpus: "GPU 수 ",
    link: "링크 ",
    master_gpu: "GPU 0 ★ master",
    ring: RingWords {
        title: "시뮬레이션: all-reduce를 한 step씩",
        values_per_rank: "rank당 값 개수 ",
        algorithm: "알고리즘 ",
        label: "All-reduce",
        explain_start: |n| format!("시작: rank {n}개가 각자 자기 gradient를 갖고 있습니다."),
        explain_reduce_scatter: "Reduce-scatter: 모든 rank가 chunk 하나를 오른쪽 이웃에게 \
                                 보내고, 받은 rank는 그 값을 자기 복사본에 더합니다.",
        explain_all_gather: "All-gather: 모든 rank가 완성된 chunk를 이웃에게 넘기고, 받은 \
                             rank는 그 값으로 자기 복사본을 덮어씁니다.",
        explain_reduce: "Reduce: 텐서 전체가 rank 0 쪽으로 모이고, rank 0이 이를 모두 \
                         더합니다.",
        explain_broadcast: "Broadcast: 합계가 rank 0에서 다시 모든 rank로 퍼져 나갑니다.",
        cost_title: "시간은 얼마나 걸릴까요?",
        tensor_size: "텐서 크기 ",
        diagram: |n, sends| {
            format!(
                "rank {n}개가 이루는 ring. 이번 step의 전송 {}건은 화살표로 표시됩니다",
                count(sends as u64)
            )
        },
        added: "받은 값이 방금 더해짐",
        copied: "받은 값으로 방금 덮어씀",
        caption_before: "각 rank가 가진 값입니다. ",
        caption_added: "는 받은 chunk가 방금 더해진 값, ",
        caption_copied: "는 방금 덮어쓴 값입니다.",
        chunk_column: "chunk",
        chunk: |c| format!("chunk c{c}"),
        whole_tensor: "텐서 전체",
        send: |from, to, what, values| format!("rank {from} → rank {to}: {what} [{values}]"),
        more_sends: |rest| format!("…외에 이번 step에서 전송 {rest}건이 더 있습니다."),
        holds_sum: "이제 모든 rank가 합계를 갖고 있습니다: ",
        ddp_gradient: |n| format!("DDP의 gradient (각 입력에 1/{n}을 곱한 뒤 합산): "),
        agree: "✓ 모든 rank의 값이 같고, 원소별 합과도 같습니다.",
        disagree: "✗ rank마다 값이 다릅니다.",
        cost_caption: |size, ranks, link, alpha, beta| {
            format!(
                "{size}, rank {ranks}개, {link} (α = {alpha}, β = {beta}): 시간 = step 수 × \
                 (α + step당 바이트 / β)"
            )
        },
        col_algorithm: "알고리즘",
        col_steps: "step 수",
        col_time: "시간",
        col_algbw: "algbw",
        col_busbw: "busbw",
    },
    sampler: SamplerWords {
        title: "시뮬레이션: DistributedSampler",
        dataset_size: "데이터셋 크기 ",
        seed: "seed ",
        shuffle: "shuffle",
        drop_last: "drop_last",
        set_epoch: "set_epoch(epoch) 호출",
        label: "sampler",
        no_shuffle: "shuffle=False: 매 epoch 데이터셋을 처음부터 순서대로 돕니다.",
        with_set_epoch: |epoch, seed| {
            format!(
                "epoch {epoch}: set_epoch({epoch}) 호출로 shuffle의 seed는 seed + epoch = \
                 {seed}입니다."
            )
        },
        without_set_epoch: |epoch| {
            format!(
                "epoch {epoch}: set_epoch를 한 번도 호출하지 않아서 sampler는 epoch 0에 머물고, \
                 매 epoch 같은 순서를 반복합니다."
            )
        },
        padding_title: "padding: 반복된 인덱스",
        padding: "padding",
        dropped: "버려짐",
        dataset_title: "데이터셋: 각 인덱스를 읽는 rank별로 표시",
        summary: |len, ranks, each, padded, dropped| {
            format!(
                "인덱스 {len}개를 rank {ranks}개에 나눔: rank마다 {each}개{}{}.",
                match padded {
                    0 => String::new(),
                    p => format!(", 그중 {p}개는 padding으로 반복된 인덱스(* 표시)"),
                },
                match dropped {
                    0 => String::new(),
                    d => format!(", {d}개는 drop_last로 버려짐"),
                }
            )
        },
    },
    timeline: TimelineWords {
        batch: "배치 크기 ",
        hardware: "하드웨어 ",
        describe: |layers, params_m, batch, device, link| {
            format!(
                "MLP {layers} (파라미터 {params_m:.1}M개), batch {batch}, 장치 {device}, 연결 \
                 {link}. 시간은 실제로 돌린 값이 아니라 cost model이 추정한 값이고, chunk 크기와 \
                 DDP의 bucket은 PyTorch와 같습니다."
            )
        },
    },
    dp_vs_ddp: DpVsDdpWords {
        title: "시뮬레이션: DataParallel vs DistributedDataParallel",
        label: "DP vs DDP",
        start: "시간 0: 재생을 누르면 iteration 하나를 실행합니다",
        dp: "DataParallel: ",
        ddp: "DDP: ",
        speedup: |time| format!(" 속도 향상, iteration당 {time}"),
        dp_title: "DataParallel: 프로세스 하나, GPU마다 스레드 하나",
        ddp_title: "DDP: GPU마다 프로세스 하나",
        curve_title: "GPU 수에 따른 속도 향상 (GPU 하나 대비)",
        legend_compute: "연산 (forward, 손실, backward, optimizer step)",
        legend_comm: "복사와 collective 연산",
        legend_host: "호스트의 Python (DP: GIL을 쥐고 있는 시간)",
        python: "Python",
        timeline: |devices, time| {
            format!("장치 {devices}개의 타임라인. iteration 하나에 {time} 걸립니다")
        },
        col_device: "장치",
        col_samples: "샘플",
        col_busy: "작업 시간",
        col_load: "부하",
        col_memory: "메모리",
        chart: "GPU 수에 따른 DataParallel과 DDP의 속도 향상",
        axis_gpus: "GPU 수",
        axis_speedup: |max| format!("속도 향상 (최대 {max:.0}×)"),
        chart_key: "파선: DataParallel. 실선: DDP. 점선: 이상적인 확장.",
    },
    scatter_gather: ScatterGatherWords {
        title: "시뮬레이션: scatter, gather, 그리고 master GPU",
        chunks: |batch, sizes| format!("torch.chunk로 나눈 batch {batch}: {sizes}."),
        only_some: |used, gpus| format!(" GPU {gpus}개 중 {used}개만 chunk를 받습니다."),
        label: "scatter와 gather",
        start: "iteration 전: 모델은 GPU 0에 있습니다",
        press_next: "다음 단계를 눌러 DataParallel iteration 하나를 단계별로 따라가 보세요.",
        phases: DpPhases {
            scatter: "Scatter: batch를 torch.chunk로 자르고, 각 chunk를 GPU 0에서 담당 GPU로 \
                      복사합니다.",
            replicate: "Replicate: GPU 0의 파라미터를 나머지 모든 GPU로 복사합니다. 매 \
                        iteration마다 이렇게 합니다.",
            forward: "Forward: GPU마다 Python 스레드 하나가 자기 replica를 실행하고, 스레드들은 \
                      GIL을 번갈아 쥡니다.",
            gather: "Gather: 모든 GPU의 출력을 GPU 0으로 복사합니다.",
            loss: "손실 계산: GPU 0 혼자서 batch 전체의 손실을 계산합니다.",
            scatter_grad_output: "Backward 시작: 출력 chunk마다 그 gradient가 해당 chunk를 만든 \
                                  GPU로 돌아갑니다.",
            backward: "Backward: 각 replica가 자기 파라미터의 gradient를 계산합니다.",
            reduce_gradients: "Reduce: 모든 replica의 gradient를 GPU 0으로 합산합니다.",
            optimizer_step: "Optimizer step: GPU 0 혼자 가중치를 업데이트합니다. 나머지 GPU는 \
                             다음 replicate 전까지 아무것도 들고 있지 않습니다.",
        },
        device: |samples, memory| format!("샘플 {}개 · 메모리 {memory}", count(samples as u64)),
        idle: "이 단계에서는 쉬는 중",
        chart_title: "GPU 수에 따른 GPU 0과 나머지 GPU 비교",
        col_gpus: "GPU 수",
        col_master_busy: "GPU 0 작업 시간",
        col_other_busy: "나머지 중 최대 작업 시간",
        col_extra: "GPU 0 초과분",
        col_master_memory: "GPU 0 메모리",
        col_other_memory: "나머지 메모리",
    },
    accumulation: AccumulationWords {
        explain_start: |k| {
            format!(
                "micro-batch {k}개로 이루어진 optimizer step 하나입니다. 하나씩 진행해 보세요. \
                 micro-batch마다 모든 GPU에서 forward와 backward를 실행합니다."
            )
        },
        explain_inside: |d, k, buckets| {
            format!(
                "micro-batch {d} / {k}. no_sync 없이는 backward에서 bucket {}개를 all-reduce하고, \
                 no_sync 안에서는 아무것도 all-reduce하지 않으며 gradient는 GPU마다 따로 .grad에 \
                 쌓입니다.",
                count(buckets as u64)
            )
        },
        explain_last: |k, buckets| {
            format!(
                "micro-batch {k} / {k}, no_sync 밖: backward에서 bucket {}개를 한 번 \
                 all-reduce해, micro-batch {k}개 동안 쌓인 gradient를 평균 냅니다. 그다음 \
                 optimizer.step()과 zero_grad()를 호출합니다.",
                count(buckets as u64)
            )
        },
        title: "시뮬레이션: gradient accumulation과 no_sync",
        micro_batches: "step당 micro-batch 수 ",
        label: "gradient accumulation",
        syncs: |buckets| format!("all-reduce {buckets}번"),
        no_sync: "no_sync",
        with_no_sync: "no_sync 사용",
        without_no_sync: "no_sync 없이",
        so_far: |without, with| {
            format!("지금까지 all-reduce: no_sync 없이 {without}번, no_sync 사용 시 {with}번.")
        },
        per_step: "optimizer step당 all-reduce 횟수",
        bytes_sent: "GPU 하나가 보내는 바이트 (ring)",
        comm_time: |link| format!("통신 시간 ({link}, α–β)"),
        summary: |parameters, buckets, micro_batch, k, gpus, global, saved, total| {
            format!(
                "파라미터 {parameters}개, bucket {}개인 모델. global batch = micro-batch당 \
                 {micro_batch} × micro-batch {k}개 × GPU {gpus}개 = optimizer step당 샘플 \
                 {global}개. no_sync는 all-reduce {total}번 중 {saved}번을 줄이고, gradient는 \
                 똑같습니다.",
                count(buckets as u64)
            )
        },
    },
    memory: MemoryWords {
        explain_ddp: "DDP: 모든 GPU가 모델 전체와 모든 gradient, optimizer 상태 전체를 들고 \
                      있습니다.",
        explain_zero1: |gpus| {
            format!(
                "ZeRO-1: optimizer 상태를 shard {gpus}개로 나눕니다. 각 GPU는 파라미터 중 자기 \
                 몫만 업데이트하고, 업데이트된 파라미터를 all-gather합니다."
            )
        },
        explain_zero2: |gpus| {
            format!(
                "ZeRO-2: gradient도 나눕니다. reduce-scatter가 끝나면 각 GPU에는 자기 몫인 \
                 1/{gpus}의 평균 gradient만 남습니다."
            )
        },
        explain_zero3: "ZeRO-3, FSDP의 full sharding: 파라미터까지 나눕니다. 각 레이어의 \
                        파라미터는 그 레이어가 실행되기 직전에 all-gather하고 실행 뒤에 \
                        해제합니다. 나누지 않고 남는 것은 activation뿐입니다.",
        title: "시뮬레이션: GPU당 메모리",
        parameters_b: "파라미터 수 (10억 개 단위) ",
        activations_gb: "GPU당 activation (GB) ",
        gpu_gb: "GPU 메모리 (GB) ",
        optimizer: "optimizer ",
        precision: "precision ",
        label: "메모리",
        part_parameters: "파라미터",
        part_gradients: "gradient",
        part_optimizer: "optimizer 상태",
        part_activations: "activation",
        total: |size, fits| format!("{size} {}", if fits { "들어감" } else { "넘침" }),
        legend_parameters: "파라미터",
        legend_gradients: "gradient",
        legend_optimizer: "optimizer 상태",
        legend_activations: "activation",
        legend_gpu: |gb| format!("GPU 하나의 메모리 {gb} GB"),
        summary: |params_b, gpus, optimizer, precision, pb, gb, k, activations_gb| {
            format!(
                "파라미터 {params_b}B개, GPU {gpus}개, {optimizer}, {precision} precision: \
                 파라미터당 {pb} + {gb} + {k} 바이트(파라미터, gradient, optimizer 상태 K = \
                 {k}). 여기에 GPU당 activation {activations_gb} GB가 더해지며, activation은 \
                 어느 stage도 나누지 않습니다."
            )
        },
    },
    run: RunWords {
        no_prediction: |why| format!("예측 없음: {why}."),
        no_ddp_model: "스크립트에 DistributedDataParallel로 감싼 모델이 없습니다",
        not_mlp: "cost model은 MLP(nn.Linear 레이어를 이어 붙인 모델)의 시간만 계산하는데, 이 \
                  모델은 MLP가 아닙니다",
        no_batch_size: "학습용 DataLoader에 고정된 batch_size가 없습니다",
        bad_widths: |e| format!("모델의 레이어 폭으로는 MLP를 만들 수 없습니다: {e}"),
        too_few_epochs: "완료한 epoch가 너무 적어 step 시간을 잴 수 없습니다.",
        slower: |ratio, model| format!("모델이 예측한 {model}의 {ratio:.1}배"),
        faster: |percent, model| format!("모델이 예측한 {model}의 {percent:.0}%"),
        why_slower: " 모델은 레이어의 연산, all-reduce, optimizer만 계산합니다. 실제 step의 \
                     나머지(Python에서 batch를 불러와 묶는 일, 손실 계산, 모델이 잡아 둔 \
                     것보다 긴 레이어 사이의 인터프리터 시간, 같은 머신의 다른 작업)가 그 \
                     차이입니다.",
        why_faster: " 머신이 모델의 가정보다 빨랐습니다. 모델의 수치를 잰 머신보다 코어나 \
                     링크가 빠릅니다.",
        why_close: " 비슷합니다. step 시간의 대부분이 모델이 계산하는 작업입니다.",
        gap: |measured, size, why| {
            format!("여러분의 실행에서 step 하나는 rank마다 {measured} 걸렸습니다: {size}.{why}")
        },
        model_series: |preset| format!("모델 ({preset})"),
        your_step: "내 step",
        your_allreduce: "내 all-reduce",
        model_step: "모델의 step",
        model_allreduces: "모델의 all-reduce",
        setup: |preset, widths, batch, world, steps| {
            format!(
                "모델: {preset}에서의 DDP cost model, 레이어 폭이 {widths}인 MLP, 프로세스 \
                 {world}개에 global batch {batch}, epoch당 {steps} step."
            )
        },
        title: "내 실행과 모델의 예측",
        epochs_caption: "epoch(1, 2, …)별 시간(초), rank마다 한 줄. 파선은 모델이 예측한 epoch \
                         시간입니다",
        epochs_chart: "rank별 epoch당 시간(초)과 모델의 예측",
        loss_caption: "epoch별 평균 손실, rank마다 한 줄 (DDP가 replica를 똑같이 유지하므로 rank \
                       사이의 손실 차이는 데이터 차이에서만 생깁니다)",
        loss_chart: "rank별 epoch당 평균 손실",
        bars_caption: "step 하나와 그 all-reduce: 내 실행(DDP가 시작될 때 한 번 잰 all-reduce)과 \
                       모델(backward와 겹쳐 실행되는 bucket들의 all-reduce)",
        bars_chart: "측정값과 예측값: step 하나와 그 all-reduce",
        numbers: "수치",
        col_rank: "rank",
        col_epoch: "epoch",
        col_time: "시간",
        col_loss: "평균 손실",
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_with_numbers() {
        assert_eq!((EN.units.step.position)(2, 4), "Step 2 of 4");
        assert_eq!((EN.units.micro_batch.position)(1, 4), "Micro-batch 1 of 4");
        assert_eq!((EN.next)(EN.units.phase.name), "Next phase");
        assert_eq!((KO.next)(KO.units.phase.name), "다음 단계");
        assert_eq!(
            (EN.ring.diagram)(3, 1),
            "3 ranks in a ring; this step, 1 send, drawn as arrows"
        );
        assert_eq!((EN.scatter_gather.device)(1024, "1 MiB"), "1,024 samples · 1 MiB memory");
        assert_eq!((KO.scatter_gather.device)(1024, "1 MiB"), "샘플 1,024개 · 메모리 1 MiB");
    }
}
