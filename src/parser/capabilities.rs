//! Reading `AgentCapabilities` documents.

use bumpalo::Bump;

use super::{ParseOptions, Parser};
use crate::error::{Error, RawResult};
use crate::model::*;

impl<'a> AgentCapabilities<'a> {
    /// Parses an `AgentCapabilities` document with the default [`ParseOptions`].
    ///
    /// ```
    /// use agui_wire::{AgentCapabilities, Bump};
    /// let arena = Bump::new();
    /// let caps = AgentCapabilities::parse(br#"{"execution":{"maxIterations":10}}"#, &arena)?;
    /// assert_eq!(caps.execution.unwrap().max_iterations, Some(10));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn parse(input: &'a [u8], arena: &'a Bump) -> Result<AgentCapabilities<'a>, Error> {
        Self::parse_with(input, arena, &ParseOptions::default())
    }

    /// Parses an `AgentCapabilities` document with the given options.
    ///
    /// ```
    /// use agui_wire::{AgentCapabilities, ParseOptions, Bump};
    /// let arena = Bump::new();
    /// let err = AgentCapabilities::parse_with(br#"{"state":{"deltas":"yes"}}"#, &arena, &ParseOptions::default());
    /// assert_eq!(err.unwrap_err().to_string(),
    ///     "`deltas` must be a boolean, found a string at state.deltas (byte 19)");
    /// ```
    pub fn parse_with(
        input: &'a [u8],
        arena: &'a Bump,
        options: &ParseOptions,
    ) -> Result<AgentCapabilities<'a>, Error> {
        Parser::document(input, arena, options, "AgentCapabilities", |p| {
            p.capabilities()
        })
    }
}

/// Reads a capability group made only of optional booleans.
macro_rules! flag_group_parser {
    ($fn_name:ident, $ty:ident, $field:literal) => {
        fn $fn_name(&mut self) -> RawResult<Option<$ty<'a>>> {
            if self.null_as_absent($field)? {
                return Ok(None);
            }
            self.expect_kind(b'{', $field, "an object")?;
            let mut obj = self.open()?;
            let mut g = $ty::default();
            while let Some(key) = self.next_key(&mut obj)? {
                match self.known(&mut obj, $ty::FIELDS, &key)? {
                    Some(id) => {
                        let v = self.opt_bool($ty::FIELDS[id])?;
                        if let Some(slot) = g.flags_mut().into_iter().nth(id) {
                            *slot = v;
                        }
                    }
                    None => self.unknown(&mut obj, key)?,
                }
            }
            g.extra = self.finish(obj);
            Ok(Some(g))
        }
    };
}

impl<'a> Parser<'a, '_> {
    flag_group_parser!(transport, TransportCapabilities, "transport");
    flag_group_parser!(state_caps, StateCapabilities, "state");
    flag_group_parser!(reasoning_caps, ReasoningCapabilities, "reasoning");
    flag_group_parser!(hitl, HumanInTheLoopCapabilities, "humanInTheLoop");
    flag_group_parser!(mm_input, MultimodalInputCapabilities, "input");
    flag_group_parser!(mm_output, MultimodalOutputCapabilities, "output");

    pub(crate) fn capabilities(&mut self) -> RawResult<AgentCapabilities<'a>> {
        let mut obj = self.open()?;
        let mut c = AgentCapabilities::default();
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, AgentCapabilities::FIELDS, &key)? {
                Some(0) => c.identity = self.identity()?,
                Some(1) => c.transport = self.transport()?,
                Some(2) => c.tools = self.tools_caps()?,
                Some(3) => c.output = self.output_caps()?,
                Some(4) => c.state = self.state_caps()?,
                Some(5) => c.multi_agent = self.multi_agent()?,
                Some(6) => c.reasoning = self.reasoning_caps()?,
                Some(7) => c.multimodal = self.multimodal()?,
                Some(8) => c.execution = self.execution()?,
                Some(9) => c.human_in_the_loop = self.hitl()?,
                Some(10) => {
                    if !self.null_as_absent("custom")? {
                        c.custom = Some(self.raw_object("custom")?);
                    }
                }
                _ => self.unknown(&mut obj, key)?,
            }
        }
        c.extra = self.finish(obj);
        Ok(c)
    }

    fn group_start(&mut self, field: &'static str) -> RawResult<bool> {
        if self.null_as_absent(field)? {
            return Ok(false);
        }
        self.expect_kind(b'{', field, "an object")?;
        Ok(true)
    }

    fn identity(&mut self) -> RawResult<Option<IdentityCapabilities<'a>>> {
        if !self.group_start("identity")? {
            return Ok(None);
        }
        let mut obj = self.open()?;
        let mut g = IdentityCapabilities::default();
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, IdentityCapabilities::FIELDS, &key)? {
                Some(0) => g.name = self.opt_string("name")?,
                Some(1) => g.r#type = self.opt_string("type")?,
                Some(2) => g.description = self.opt_string("description")?,
                Some(3) => g.version = self.opt_string("version")?,
                Some(4) => g.provider = self.opt_string("provider")?,
                Some(5) => g.documentation_url = self.opt_string("documentationUrl")?,
                Some(6) => g.metadata = self.metadata(false)?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        g.extra = self.finish(obj);
        Ok(Some(g))
    }

    fn tools_caps(&mut self) -> RawResult<Option<ToolsCapabilities<'a>>> {
        if !self.group_start("tools")? {
            return Ok(None);
        }
        let mut obj = self.open()?;
        let mut g = ToolsCapabilities::default();
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, ToolsCapabilities::FIELDS, &key)? {
                Some(0) => g.supported = self.opt_bool("supported")?,
                Some(1) => g.items = self.opt_list("items", |p| p.tool())?,
                Some(2) => g.parallel_calls = self.opt_bool("parallelCalls")?,
                Some(3) => g.client_provided = self.opt_bool("clientProvided")?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        g.extra = self.finish(obj);
        Ok(Some(g))
    }

    fn output_caps(&mut self) -> RawResult<Option<OutputCapabilities<'a>>> {
        if !self.group_start("output")? {
            return Ok(None);
        }
        let mut obj = self.open()?;
        let mut g = OutputCapabilities::default();
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, OutputCapabilities::FIELDS, &key)? {
                Some(0) => g.structured_output = self.opt_bool("structuredOutput")?,
                Some(1) => {
                    g.supported_mime_types = self.opt_list("supportedMimeTypes", |p| {
                        p.cur.skip_ws();
                        p.string("supportedMimeTypes")
                    })?
                }
                _ => self.unknown(&mut obj, key)?,
            }
        }
        g.extra = self.finish(obj);
        Ok(Some(g))
    }

    fn multi_agent(&mut self) -> RawResult<Option<MultiAgentCapabilities<'a>>> {
        if !self.group_start("multiAgent")? {
            return Ok(None);
        }
        let mut obj = self.open()?;
        let mut g = MultiAgentCapabilities::default();
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, MultiAgentCapabilities::FIELDS, &key)? {
                Some(0) => g.supported = self.opt_bool("supported")?,
                Some(1) => g.delegation = self.opt_bool("delegation")?,
                Some(2) => g.handoffs = self.opt_bool("handoffs")?,
                Some(3) => g.subagents = self.opt_list("subagents", |p| p.subagent())?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        g.extra = self.finish(obj);
        Ok(Some(g))
    }

    fn subagent(&mut self) -> RawResult<SubagentInfo<'a>> {
        self.expect_kind(b'{', "subagents", "an object")?;
        let mut obj = self.open()?;
        let mut g = SubagentInfo::default();
        let mut name = None;
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, SubagentInfo::FIELDS, &key)? {
                Some(0) => name = Some(self.string("name")?),
                Some(1) => g.description = self.opt_string("description")?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        g.name = name.ok_or_else(|| Self::missing(obj.start, "name"))?;
        g.extra = self.finish(obj);
        Ok(g)
    }

    fn multimodal(&mut self) -> RawResult<Option<MultimodalCapabilities<'a>>> {
        if !self.group_start("multimodal")? {
            return Ok(None);
        }
        let mut obj = self.open()?;
        let mut g = MultimodalCapabilities::default();
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, MultimodalCapabilities::FIELDS, &key)? {
                Some(0) => g.input = self.mm_input()?,
                Some(1) => g.output = self.mm_output()?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        g.extra = self.finish(obj);
        Ok(Some(g))
    }

    fn execution(&mut self) -> RawResult<Option<ExecutionCapabilities<'a>>> {
        if !self.group_start("execution")? {
            return Ok(None);
        }
        let mut obj = self.open()?;
        let mut g = ExecutionCapabilities::default();
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, ExecutionCapabilities::FIELDS, &key)? {
                Some(0) => g.code_execution = self.opt_bool("codeExecution")?,
                Some(1) => g.sandboxed = self.opt_bool("sandboxed")?,
                Some(2) => g.max_iterations = self.opt_u64("maxIterations")?,
                Some(3) => g.max_execution_time = self.opt_u64("maxExecutionTime")?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        g.extra = self.finish(obj);
        Ok(Some(g))
    }
}
